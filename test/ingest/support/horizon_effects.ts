// Horizon's effects_processor_test.go (stellar/stellar-horizon, internal/ingest/processors) as
// Zenith runs it: the same XDR (base64 where Horizon has it, else built here from the same Go
// values), and Horizon's expected effects in Horizon's shape, compared with our rows field by field.
import { xdr } from '@stellar/stellar-sdk/base';
import { addTransactionRows, emptyTransactionRows } from '../../../src/ingest/ledger_rows.js';
import { operationEffects } from '../../../src/ingest/processors/effects.js';
import { operationSource } from '../../../src/ingest/processors/operations.js';
import type { EffectRow } from '../../../src/ingest/rows.js';
import { splitMeta, type LedgerTx, type LedgerView } from '../../../src/meta/index.js';
import {
  EFFECT_TYPES,
  accountIdFromXdr,
  accountIdToXdr,
  muxedAccountFromXdr,
  networkId,
  toid,
  type EffectTypeName,
} from '../../../src/stellar/index.js';

/** the passphrase of Horizon's processor tests */
export const HORIZON_TEST_PASSPHRASE = 'Arbitrary Testing Passphrase';

/** one of Horizon's expected effects (effects_processor_test.go's `effect`), details as Go writes them to JSON */
export interface HorizonEffect {
  address: string;
  addressMuxed?: string | null;
  operationID: bigint | string;
  order: number;
  effectType: EffectTypeName;
  details: Record<string, unknown>;
}

interface Comparable {
  account: string;
  account_muxed: string | null;
  operation_id: string;
  order: number;
  type: number;
  details: unknown;
}

/** our rows in the shape they are compared in: details as JSON stores them */
export function ours(rows: EffectRow[]): Comparable[] {
  return rows.map((r) => ({
    account: r.account,
    account_muxed: r.account_muxed,
    operation_id: String(r.operation_id),
    order: r.order,
    type: r.type,
    details: JSON.parse(JSON.stringify(r.details)),
  }));
}

export function horizons(effects: HorizonEffect[]): Comparable[] {
  return effects.map((e) => ({
    account: e.address,
    account_muxed: e.addressMuxed ?? null,
    operation_id: String(e.operationID),
    order: e.order,
    type: EFFECT_TYPES[e.effectType],
    details: e.details,
  }));
}

/** Horizon's TestTransaction: base64 parts of one transaction (its application order is 1) */
export interface TestTransaction {
  envelopeXDR: string;
  resultXDR: string;
  metaXDR: string;
  feeChangesXDR: string;
  hash: string;
  /** the operation whose effects are compared */
  index: number;
  /** the ledger's sequence */
  sequence: number;
}

function ledgerTx(
  index: number,
  hash: string,
  envelope: xdr.TransactionEnvelope,
  result: xdr.TransactionResult,
  meta: xdr.TransactionMeta,
  feeChanges: xdr.LedgerEntryChange[],
): LedgerTx {
  const parts = splitMeta(meta);
  return {
    index,
    hash,
    envelope,
    result: new xdr.TransactionResultPair({ transactionHash: Buffer.from(hash, 'hex'), result }),
    feeChanges,
    meta,
    postApplyFeeChanges: [],
    changesBefore: parts.before,
    operationChanges: parts.ops,
    changesAfter: parts.after,
  };
}

function ledgerView(sequence: number, tx: LedgerTx, passphrase: string): LedgerView {
  return {
    sequence,
    hash: '',
    header: undefined as never,
    headerEntry: undefined as never,
    txs: [tx],
    upgradeChanges: [],
    networkId: networkId(passphrase),
  };
}

/** The effects the ingester's addTransactionRows makes of the transaction's operation `index`. */
export function transactionEffects(tc: TestTransaction, passphrase = HORIZON_TEST_PASSPHRASE): EffectRow[] {
  const tx = ledgerTx(
    1,
    tc.hash,
    xdr.TransactionEnvelope.fromXdr(tc.envelopeXDR, 'base64'),
    xdr.TransactionResult.fromXdr(tc.resultXDR, 'base64'),
    xdr.TransactionMeta.fromXdr(tc.metaXDR, 'base64'),
    xdr.decodeArray(xdr.LedgerEntryChange, tc.feeChangesXDR, 'base64'),
  );
  const rows = emptyTransactionRows();
  addTransactionRows(rows, ledgerView(tc.sequence, tx, passphrase), tx, '2020-01-01T00:00:00.000Z');
  const id = toid(tc.sequence, 1, tc.index + 1);
  return rows.effects.filter((e) => e.operation_id === id);
}

/** One operation of a transaction Horizon's test builds from Go values (its `transactionOperationWrapper`). */
export interface TestOperation {
  op: xdr.Operation;
  /** the transaction's source, for an operation without its own */
  txSource?: xdr.MuxedAccount;
  /** the operation's result; reading it when not given fails the test */
  result?: xdr.OperationResultTr;
  meta: xdr.TransactionMeta;
  /** the operation's index in the transaction (its changes are the meta's at that index) */
  index?: number;
  ledger?: number;
  /** the transaction's index (Horizon's tests leave it 0) */
  txIndex?: number;
  passphrase?: string;
}

/** The effects of one operation, the operation and meta first encoded and decoded as a ledger's are. */
export function operationEffectsOf(t: TestOperation): EffectRow[] {
  const op = xdr.Operation.fromXdr(t.op.toXdr());
  const meta = xdr.TransactionMeta.fromXdr(t.meta.toXdr());
  const index = t.index ?? 0;
  const source = operationSource(op, t.txSource ? xdr.MuxedAccount.fromXdr(t.txSource.toXdr()) : (undefined as never));
  const given = t.result ? xdr.OperationResultTr.fromXdr(t.result.toXdr()) : null;
  return operationEffects({
    operationId: toid(t.ledger ?? 1, t.txIndex ?? 0, index + 1),
    closedAt: '2020-01-01T00:00:00.000Z',
    op,
    source,
    sourceId: muxedAccountFromXdr(source).accountId,
    get result(): xdr.OperationResultTr {
      if (!given) throw new Error('the operation’s result was read, and Horizon’s test gives none');
      return given;
    },
    changes: splitMeta(meta).ops[index] ?? [],
    meta,
    networkId: networkId(t.passphrase ?? HORIZON_TEST_PASSPHRASE),
  });
}

// Builders of the Go values Horizon's tests write out

export const account = (address: string): xdr.AccountId => accountIdToXdr(address);

export function muxed(address: string, id?: bigint): xdr.MuxedAccount {
  const key = account(address).ed25519;
  if (id === undefined) return xdr.MuxedAccount.keyTypeEd25519(key);
  return xdr.MuxedAccount.keyTypeMuxedEd25519(new xdr.MuxedAccountMed25519({ id, ed25519: key }));
}

export function creditAsset(code: string, issuer: string): xdr.Asset {
  const assetCode = Buffer.alloc(code.length <= 4 ? 4 : 12);
  assetCode.write(code, 'latin1');
  return code.length <= 4
    ? xdr.Asset.assetTypeCreditAlphanum4(new xdr.AlphaNum4({ assetCode, issuer: account(issuer) }))
    : xdr.Asset.assetTypeCreditAlphanum12(new xdr.AlphaNum12({ assetCode, issuer: account(issuer) }));
}

export const nativeAsset = (): xdr.Asset => xdr.Asset.assetTypeNative();

export const int64 = (n: bigint | number): xdr.Int64 => BigInt(n);

/** a LedgerEntry, with LedgerEntryExt v1 when `sponsor` is given */
export function ledgerEntry(data: xdr.LedgerEntryData, lastModified = 0, sponsor?: string): xdr.LedgerEntry {
  const ext =
    sponsor === undefined
      ? xdr.LedgerEntryExt.v0()
      : xdr.LedgerEntryExt.v1(new xdr.LedgerEntryExtensionV1({ sponsoringId: account(sponsor), ext: xdr.LedgerEntryExtensionV1Ext.v0() }));
  return new xdr.LedgerEntry({ lastModifiedLedgerSeq: lastModified, data, ext });
}

export interface AccountFields {
  accountId: string;
  balance?: bigint;
  seqNum?: bigint;
  inflationDest?: string;
  thresholds?: number[];
  signers?: { key: string; weight: number }[];
  /** AccountEntryExtensionV2's signerSponsoringIDs (null: a signer nobody sponsors) */
  signerSponsors?: (string | null)[];
}

export function accountEntry(f: AccountFields): xdr.LedgerEntryData {
  const ext =
    f.signerSponsors === undefined
      ? xdr.AccountEntryExt.v0()
      : xdr.AccountEntryExt.v1(
          new xdr.AccountEntryExtensionV1({
            liabilities: new xdr.Liabilities({ buying: int64(0), selling: int64(0) }),
            ext: xdr.AccountEntryExtensionV1Ext.v2(
              new xdr.AccountEntryExtensionV2({
                numSponsored: 0,
                numSponsoring: 0,
                // a signer nobody sponsors is a null descriptor
                signerSponsoringIDs: f.signerSponsors.map((s) => (s === null ? null : account(s))),
                ext: xdr.AccountEntryExtensionV2Ext.v0(),
              }),
            ),
          }),
        );
  return xdr.LedgerEntryData.account(
    new xdr.AccountEntry({
      accountId: account(f.accountId),
      balance: int64(f.balance ?? 0n),
      seqNum: int64(f.seqNum ?? 0n),
      numSubEntries: 0,
      inflationDest: f.inflationDest ? account(f.inflationDest) : null,
      flags: 0,
      homeDomain: '',
      thresholds: Buffer.from(f.thresholds ?? [0, 0, 0, 0]),
      signers: (f.signers ?? []).map(
        (s) => new xdr.Signer({ key: xdr.SignerKey.signerKeyTypeEd25519(account(s.key).ed25519), weight: s.weight }),
      ),
      ext,
    }),
  );
}

export function trustLineEntry(
  accountId: string,
  asset: xdr.TrustLineAsset,
  fields: { balance?: bigint; limit?: bigint; flags?: number } = {},
): xdr.LedgerEntryData {
  return xdr.LedgerEntryData.trustline(
    new xdr.TrustLineEntry({
      accountId: account(accountId),
      asset,
      balance: int64(fields.balance ?? 0n),
      limit: int64(fields.limit ?? 0n),
      flags: fields.flags ?? 0,
      ext: xdr.TrustLineEntryExt.v0(),
    }),
  );
}

export const trustLineAsset = (asset: xdr.Asset): xdr.TrustLineAsset => xdr.TrustLineAsset.fromXdr(asset.toXdr());

export const poolShareAsset = (poolId: Uint8Array): xdr.TrustLineAsset => xdr.TrustLineAsset.assetTypePoolShare(new xdr.PoolId(poolId));

export const state = (entry: xdr.LedgerEntry): xdr.LedgerEntryChange => xdr.LedgerEntryChange.ledgerEntryState(entry);
export const created = (entry: xdr.LedgerEntry): xdr.LedgerEntryChange => xdr.LedgerEntryChange.ledgerEntryCreated(entry);
export const updated = (entry: xdr.LedgerEntry): xdr.LedgerEntryChange => xdr.LedgerEntryChange.ledgerEntryUpdated(entry);
export const removed = (key: xdr.LedgerKey): xdr.LedgerEntryChange => xdr.LedgerEntryChange.ledgerEntryRemoved(key);

/** TransactionMeta v1 or v2 (Horizon's tests use both) with each operation's changes */
export function transactionMeta(
  version: 1 | 2,
  operations: xdr.LedgerEntryChange[][],
  txChanges: xdr.LedgerEntryChange[] = [],
): xdr.TransactionMeta {
  const ops = operations.map((changes) => new xdr.OperationMeta({ changes }));
  if (version === 1) return xdr.TransactionMeta.v1(new xdr.TransactionMetaV1({ txChanges, operations: ops }));
  return xdr.TransactionMeta.v2(new xdr.TransactionMetaV2({ txChangesBefore: txChanges, operations: ops, txChangesAfter: [] }));
}

export const address = (id: xdr.AccountId): string => accountIdFromXdr(id);
