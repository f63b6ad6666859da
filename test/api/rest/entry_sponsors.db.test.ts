// Sponsors and modification times of state entries, from stellar-core's own ledgers: its test
// "add sponsored entry before adding first sponsored signer" (BeginSponsoringFutureReservesTests)
// makes an account sponsor another's trust line (ledger 3) and then one of its signers (ledger 4).
// Who sponsors whom is read from the envelopes (the begin-sponsoring operation's source and its
// sponsored id), the close times from the ledger headers: never from what our ingest wrote.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StrKey, type xdr } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, serveTestApi } from '../../support/api_server.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { coreLcmCase, coreLcmManifest, ingestCase, ledgerBody, writeCaseDatastore } from '../../support/stellar_core_lcm.js';

const CASE = 'sponsor_future_reserves-protocol_version_27-add_sponsored_entry_before_adding_first_sponsored_signer';

const accountOf = (key: xdr.MuxedAccount | xdr.PublicKey): string =>
  StrKey.encodeEd25519PublicKey(key.type === 'keyTypeMuxedEd25519' ? key.med25519.ed25519.value : key.ed25519.value);

let t: TestDatabase;
let api: TestApi;
const scratch = mkdtempSync(join(tmpdir(), 'zenith-sponsors-'));
let sponsor = '';
let sponsored = '';
const closeTimes = new Map<number, string>();

beforeAll(async () => {
  const { metas, last } = await writeCaseDatastore(coreLcmCase(CASE), scratch);
  for (const meta of metas) {
    const body = ledgerBody(meta);
    const header = body.ledgerHeader.header;
    closeTimes.set(header.ledgerSeq, new Date(Number(header.scpValue.closeTime) * 1000).toISOString().replace('.000Z', 'Z'));
    if (meta.type === 'v0') continue;
    for (const phase of (meta.type === 'v1' ? meta.v1 : meta.v2).txSet.v1TxSet.phases) {
      if (phase.type !== 'v0Components') continue;
      for (const envelope of phase.v0Components.flatMap((c) => c.txsMaybeDiscountedFee.txs)) {
        if (envelope.type !== 'envelopeTypeTx') continue;
        for (const op of envelope.v1.tx.operations) {
          if (op.body.type !== 'beginSponsoringFutureReserves') continue;
          sponsor = accountOf(op.sourceAccount ?? envelope.v1.tx.sourceAccount);
          sponsored = accountOf(op.body.beginSponsoringFutureReservesOp.sponsoredId);
        }
      }
    }
  }
  t = await createTestDatabase();
  await ingestCase(t.db, scratch, last);
  api = await serveTestApi(t, coreLcmManifest.networkPassphrase);
});

afterAll(async () => {
  await api?.close();
  await t?.drop();
  rmSync(scratch, { recursive: true, force: true });
});

async function account(id: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${api.base}/accounts/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe('entry sponsors, as Horizon shows them', () => {
  it('name the sponsor of a trust line in its balance, and of a signer', async () => {
    expect(sponsor).toMatch(/^G/);
    expect(sponsored).not.toBe(sponsor);
    const record = await account(sponsored);
    const balances = record.balances as Record<string, unknown>[];
    const line = balances.find((b) => b.asset_type !== 'native');
    expect(line?.sponsor).toBe(sponsor);
    expect(balances.find((b) => b.asset_type === 'native')).not.toHaveProperty('sponsor');
    const signers = record.signers as Record<string, unknown>[];
    expect(signers.find((s) => s.key !== sponsored)?.sponsor).toBe(sponsor);
    // the account itself was created without a sponsor (ledger 2): Horizon's omitempty
    expect(record).not.toHaveProperty('sponsor');
    expect(record.num_sponsored).toBe(2);
    expect((await account(sponsor)).num_sponsoring).toBe(2);
  });

  it('give last_modified_time: the close time of the last_modified_ledger', async () => {
    for (const id of [sponsor, sponsored]) {
      const record = await account(id);
      expect(record.last_modified_time).toBe(closeTimes.get(record.last_modified_ledger as number));
    }
  });

  it('are in GraphQL too', async () => {
    const response = await fetch(`${api.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `{ account(id: "${sponsored}") { sponsor lastModifiedTime balances { assetType sponsor } signers { key sponsor } } }`,
      }),
    });
    const { data } = (await response.json()) as { data: { account: Record<string, unknown> } };
    expect(data.account.sponsor).toBeNull();
    expect((data.account.balances as { assetType: string; sponsor: string | null }[]).map((b) => b.sponsor)).toEqual([sponsor, null]);
  });
});
