// A reingest encodes a ledger a slice of transactions at a time from its bytes, releasing each
// slice's decoded parts: the COPY bytes must equal those of the ledger's rows built at once from
// the SDK's XDR objects, across several slices.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xdr } from '@stellar/stellar-sdk/base';
import { encodeLedger } from '../../../src/ingest/encode/encoded_ledger.js';
import { encodeHistory } from '../../../src/ingest/encode/history.js';
import { ledgerRows } from '../../../src/ingest/index.js';
import { readBatchLedgers, viewLedger, viewLedgerBytes } from '../../../src/meta/index.js';
import { networkId } from '../../../src/stellar/index.js';
import { generateTraffic } from '../support/traffic.js';

const PASSPHRASE = 'Zenith Encoded Ledger Test';

describe('encoded ledger', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'zenith-encoded-'));
  let raws: Buffer[] = [];
  beforeAll(async () => {
    // 70 transactions of 2 payments per ledger: three slices of 32, 32 and 6
    await generateTraffic({ passphrase: PASSPHRASE, metaOutDir: folder, ledgers: 3, txPerLedger: 70, opsPerTx: 2 });
    for (const f of fs
      .readdirSync(folder)
      .filter((n) => n.endsWith('.xdr.zst'))
      .sort())
      raws.push(...(await readBatchLedgers(fs.readFileSync(path.join(folder, f)))));
    raws = raws.filter((raw) => viewLedgerBytes(raw, networkId(PASSPHRASE)).txs.length === 70);
  }, 60_000);
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('gives the bytes of the whole ledger\u2019s rows, slice by slice', () => {
    const network = networkId(PASSPHRASE);
    expect(raws).toHaveLength(2);
    for (const raw of raws) {
      const encoded = encodeLedger(viewLedgerBytes(raw, network));
      const rows = ledgerRows(viewLedger(xdr.LedgerCloseMeta.fromXdr(raw), network), [], { state: false });
      const whole = encodeHistory([rows]);
      expect(encoded).toMatchObject({
        sequence: rows.ledger.sequence,
        hash: rows.ledger.hash,
        prevHash: rows.ledger.prev_hash,
        operations: 140,
      });
      expect(Object.keys(encoded.history.copy).sort()).toEqual(Object.keys(whole.copy).sort());
      for (const [table, bytes] of Object.entries(whole.copy))
        expect(Buffer.from(encoded.history.copy[table]!).equals(Buffer.from(bytes)), table).toBe(true);
      expect(rows.ledger.successful_transaction_count).toBe(70);
    }
  });
});
