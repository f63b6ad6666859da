// Typed rows for API tests, shaped like the ingester writes them (details JSON with Horizon's
// names and amount strings, as in fixtures/horizon-scenarios/base-horizon.sql), plus one small
// scenario: the root account funds A and B, A pays B, a failed transaction, a trust line (one
// authorized, one not), a data entry, a signer, an offer and its trade.
import type { Database } from '../../src/db/database.js';
import { toid } from '../../src/stellar/toid.js';

export const ROOT = 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H';
export const ALICE = 'GCXKG6RN4ONIEPCMNFB732A436Z5PNDSRLGWK7GBLCMQLIFO4S7EYWVU';
export const BOB = 'GBXGQJWVLWOYHFLVTKWV5FGHA3LNYY2JQKM7OAJAUEQFU6LPCSEFVXON';
export const ISSUER = 'GA5WBPYA5Y4WAEHXWR2UKO2UO4BUGHUQ74EUPKON2QHV4WRHOIRNKKH2';

const hex = (n: number) => n.toString(16).padStart(64, '0');
const closedAt = (sequence: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, sequence * 5));

export interface SeedOperation {
  type: number;
  source: string;
  /** the M... address when the source was muxed */
  sourceMuxed?: string;
  details: Record<string, unknown>;
  isPayment?: boolean;
  participants: string[];
  effects?: { account: string; type: number; details: Record<string, unknown> }[];
}

export interface SeedTransaction {
  source: string;
  successful?: boolean;
  sequence?: bigint;
  operations: SeedOperation[];
}

/** Writes a ledger with its transactions, operations, effects and participants; returns their hashes. */
export async function seedLedger(db: Database, sequence: number, transactions: SeedTransaction[]): Promise<string[]> {
  const prisma = db.prisma;
  const successful = transactions.filter((tx) => tx.successful !== false);
  await prisma.ledger.create({
    data: {
      sequence,
      hash: hex(sequence * 1000),
      prevHash: sequence > 1 ? hex((sequence - 1) * 1000) : null,
      closedAt: closedAt(sequence),
      successfulTransactionCount: successful.length,
      failedTransactionCount: transactions.length - successful.length,
      operationCount: successful.reduce((n, tx) => n + tx.operations.length, 0),
      txSetOperationCount: transactions.reduce((n, tx) => n + tx.operations.length, 0),
      totalCoins: 1_000_000_000_000_000_000n,
      feePool: BigInt(100 * sequence),
      baseFee: 100,
      baseReserve: 5_000_000,
      maxTxSetSize: 1000,
      protocolVersion: 22,
      headerXdr: 'AAAA',
    },
  });
  const hashes: string[] = [];
  for (const [index, tx] of transactions.entries()) {
    const order = index + 1;
    const id = toid(sequence, order, 0);
    const hash = hex(sequence * 1000 + order);
    hashes.push(hash);
    const ok = tx.successful !== false;
    await prisma.transaction.create({
      data: {
        id,
        hash,
        ledgerSequence: sequence,
        applicationOrder: order,
        closedAt: closedAt(sequence),
        successful: ok,
        account: tx.source,
        accountSequence: tx.sequence ?? BigInt(sequence) * 100n + BigInt(order),
        maxFee: 100n * BigInt(tx.operations.length),
        feeCharged: 100n * BigInt(tx.operations.length),
        operationCount: tx.operations.length,
        memoType: 'none',
        signatures: ['c2lnbmF0dXJl'],
        envelopeXdr: 'AAAAAgAAAAA=',
        resultXdr: 'AAAAAAAAAGQAAAAAAAAAAQAAAAAAAAABAAAAAAAAAAA=',
        resultMetaXdr: 'AAAAAwAAAAA=',
        feeMetaXdr: 'AAAAAgAAAAA=',
      },
    });
    const accounts = new Set([tx.source, ...tx.operations.flatMap((op) => op.participants)]);
    await prisma.transactionParticipant.createMany({ data: [...accounts].map((account) => ({ account, transactionId: id })) });
    for (const [opIndex, op] of tx.operations.entries()) {
      const opId = toid(sequence, order, opIndex + 1);
      await prisma.operation.create({
        data: {
          id: opId,
          transactionId: id,
          transactionHash: hash,
          applicationOrder: opIndex + 1,
          closedAt: closedAt(sequence),
          type: op.type,
          details: op.details as object,
          sourceAccount: op.source,
          sourceAccountMuxed: op.sourceMuxed ?? null,
          transactionSuccessful: ok,
          isPayment: op.isPayment ?? [0, 1, 2, 8, 13].includes(op.type),
        },
      });
      await prisma.operationParticipant.createMany({
        data: [...new Set([op.source, ...op.participants])].map((account) => ({ account, operationId: opId })),
      });
      if (ok && op.effects) {
        await prisma.effect.createMany({
          data: op.effects.map((effect, i) => ({
            operationId: opId,
            order: i + 1,
            account: effect.account,
            closedAt: closedAt(sequence),
            type: effect.type,
            details: effect.details as object,
          })),
        });
      }
    }
  }
  return hashes;
}

export interface SeedAccount {
  id: string;
  balance: bigint;
  sequence?: bigint;
  masterWeight?: number;
  flags?: number;
}

export async function seedAccount(db: Database, account: SeedAccount): Promise<void> {
  await db.prisma.account.create({
    data: {
      id: account.id,
      balance: account.balance,
      sequence: account.sequence ?? 8589934592n,
      subentryCount: 0,
      flags: account.flags ?? 0,
      masterWeight: account.masterWeight ?? 1,
      thresholdLow: 0,
      thresholdMedium: 0,
      thresholdHigh: 0,
      lastModifiedLedger: 3,
    },
  });
}

const createAccount = (funder: string, account: string, amount: string): SeedOperation => ({
  type: 0,
  source: funder,
  details: { funder, account, starting_balance: amount },
  participants: [account],
  effects: [
    { account, type: 0, details: { starting_balance: amount } },
    { account: funder, type: 3, details: { amount, asset_type: 'native' } },
    { account, type: 10, details: { weight: 1, public_key: account, key: '' } },
  ],
});

const payment = (from: string, to: string, amount: string): SeedOperation => ({
  type: 1,
  source: from,
  details: { from, to, amount, asset_type: 'native' },
  participants: [to],
  effects: [
    { account: to, type: 2, details: { amount, asset_type: 'native' } },
    { account: from, type: 3, details: { amount, asset_type: 'native' } },
  ],
});

export interface Scenario {
  /** hashes by ledger: 2 → creates, 3 → payment, failed tx, trust, data */
  hashes: Record<number, string[]>;
}

export async function seedScenario(db: Database): Promise<Scenario> {
  const hashes: Record<number, string[]> = {};
  hashes[2] = await seedLedger(db, 2, [
    { source: ROOT, operations: [createAccount(ROOT, ALICE, '100.0000000')] },
    { source: ROOT, operations: [createAccount(ROOT, BOB, '100.0000000')] },
    { source: ROOT, operations: [createAccount(ROOT, ISSUER, '100.0000000')] },
  ]);
  hashes[3] = await seedLedger(db, 3, [
    { source: ALICE, operations: [payment(ALICE, BOB, '5.0000000')] },
    { source: ALICE, successful: false, operations: [payment(ALICE, BOB, '1000.0000000')] },
    {
      source: BOB,
      operations: [
        {
          type: 6,
          source: BOB,
          details: {
            asset_type: 'credit_alphanum4',
            asset_code: 'USD',
            asset_issuer: ISSUER,
            limit: '922337203685.4775807',
            trustor: BOB,
            trustee: ISSUER,
          },
          participants: [ISSUER],
          effects: [
            {
              account: BOB,
              type: 20,
              details: { limit: '922337203685.4775807', asset_type: 'credit_alphanum4', asset_code: 'USD', asset_issuer: ISSUER },
            },
          ],
        },
        {
          type: 10,
          source: BOB,
          details: { name: 'hello', value: 'd29ybGQ=' },
          participants: [],
          effects: [{ account: BOB, type: 40, details: { name: 'hello', value: 'd29ybGQ=' } }],
        },
      ],
    },
  ]);
  await seedAccount(db, { id: ROOT, balance: 999_999_699_999_999_700n });
  await seedAccount(db, { id: ALICE, balance: 949_999_800n, sequence: 8589934594n });
  await seedAccount(db, { id: BOB, balance: 1_049_999_800n, sequence: 8589934593n, masterWeight: 2 });
  await seedAccount(db, { id: ISSUER, balance: 1_000_000_000n, flags: 1 });
  await db.prisma.trustLine.createMany({
    data: [
      {
        accountId: BOB,
        assetType: 'credit_alphanum4',
        assetCode: 'USD',
        assetIssuer: ISSUER,
        balance: 0n,
        limit: 9_223_372_036_854_775_807n,
        flags: 1,
        lastModifiedLedger: 3,
      },
      {
        accountId: ALICE,
        assetType: 'credit_alphanum4',
        assetCode: 'USD',
        assetIssuer: ISSUER,
        balance: 0n,
        limit: 1_000_000_000n,
        flags: 0,
        lastModifiedLedger: 3,
      },
    ],
  });
  await db.prisma.signer.create({ data: { accountId: BOB, signer: ALICE, weight: 1 } });
  await db.prisma.dataEntry.create({ data: { accountId: BOB, name: 'helloWorld', value: 'd29ybGQ=', lastModifiedLedger: 3 } });
  await db.prisma.offer.create({
    data: {
      id: 7n,
      sellerId: BOB,
      sellingAsset: `USD:${ISSUER}`,
      buyingAsset: 'native',
      amount: 10_000_000n,
      priceN: 1,
      priceD: 2,
      price: 0.5,
      flags: 0,
      lastModifiedLedger: 3,
    },
  });
  const usd = await db.prisma.asset.create({ data: { type: 'credit_alphanum4', code: 'USD', issuer: ISSUER } });
  const native = await db.prisma.asset.create({ data: { type: 'native', code: '', issuer: '' } });
  await db.prisma.trade.create({
    data: {
      operationId: toid(3, 1, 1),
      order: 0,
      closedAt: closedAt(3),
      offerId: 7n,
      baseOfferId: 7n,
      baseAccount: BOB,
      baseAssetId: usd.id,
      baseAmount: 10_000_000n,
      counterAccount: ALICE,
      counterAssetId: native.id,
      counterAmount: 5_000_000n,
      baseIsSeller: true,
      priceN: 1n,
      priceD: 2n,
    },
  });
  return { hashes };
}

/** An authorized trust line to a pool's shares, as Horizon's account_test holds one: balance 10, limit 100 (stroops). */
export function poolShareLine(accountId: string, liquidityPoolId: string, lastModifiedLedger: number) {
  return {
    accountId,
    assetType: 'liquidity_pool_shares',
    assetCode: '',
    assetIssuer: '',
    liquidityPoolId,
    balance: 10n,
    limit: 100n,
    flags: 1,
    lastModifiedLedger,
  };
}
