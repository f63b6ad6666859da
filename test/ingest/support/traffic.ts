// Generated payment-heavy traffic on an embedded core that writes a datastore folder: the input
// of the crash test and of bench/ingest.ts.
import { Asset, Keypair, Operation, xdr } from '@stellar/stellar-sdk/base';
import { createCore } from '../../../src/core/index.js';
import { rootKeypair } from '../../../src/stellar/index.js';
import { envelopeSigner } from '../../support/envelopes.js';

export interface TrafficOptions {
  passphrase: string;
  /** datastore folder the core writes */
  metaOutDir: string;
  ledgers: number;
  txPerLedger: number;
  /** payment operations per transaction */
  opsPerTx?: number;
}

export interface TrafficSummary {
  firstLedger: number;
  lastLedger: number;
  operations: number;
}

export async function generateTraffic(options: TrafficOptions): Promise<TrafficSummary> {
  const { passphrase, ledgers, txPerLedger } = options;
  const opsPerTx = options.opsPerTx ?? 1;
  const { envelope } = envelopeSigner(passphrase);

  const core = await createCore({
    dataDir: null,
    networkPassphrase: passphrase,
    manualClose: true,
    metaOutDir: options.metaOutDir,
    maxTxSetSize: Math.max(100, txPerLedger * opsPerTx),
    maxQueueOps: Math.max(400, txPerLedger * opsPerTx * 2),
  });
  try {
    const root = rootKeypair(passphrase);
    const accounts = Array.from({ length: txPerLedger }, () => Keypair.random());
    let closeTime = 1_700_000_000;
    let operations = 0;
    for (let i = 0; i < accounts.length; i += 100) {
      const ops = accounts.slice(i, i + 100).map((k) => Operation.createAccount({ destination: k.publicKey(), startingBalance: '1000' }));
      const status = core.submit(envelope(root, core.nextSequence(root.publicKey())!, ops));
      if (status.status !== 'PENDING') throw new Error(`funding rejected: ${JSON.stringify(status)}`);
      operations += ops.length;
    }
    const funded = await core.closeLedger((closeTime += 5));
    const firstLedger = funded.sequence;
    for (let r = 0; r < ledgers - 1; r++) {
      accounts.forEach((k, i) => {
        const ops = Array.from({ length: opsPerTx }, (_, j) =>
          Operation.payment({
            destination: accounts[(i + 1 + j) % accounts.length]!.publicKey(),
            asset: Asset.native(),
            amount: '0.0000100',
          }),
        );
        const memo = i % 3 === 0 ? xdr.Memo.memoText(`r${r}`) : i % 3 === 1 ? xdr.Memo.memoId(BigInt(r)) : xdr.Memo.memoNone();
        const status = core.submit(envelope(k, core.nextSequence(k.publicKey())!, ops, memo));
        if (status.status !== 'PENDING') throw new Error(`payment rejected: ${JSON.stringify(status)}`);
        operations += ops.length;
      });
      await core.closeLedger((closeTime += 5));
    }
    return { firstLedger, lastLedger: core.latestLedger().sequence, operations };
  } finally {
    await core.stop();
  }
}
