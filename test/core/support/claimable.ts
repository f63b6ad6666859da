// Claimable balance operations built from raw XDR (any predicate, amount or claimant list, so
// malformed ones too), for the core's tests and the ingestion of what the core made.
import { Asset, type Keypair, xdr } from '@stellar/stellar-sdk/base';
import type { ClaimableBalanceRec } from '../../../src/core/ledger/entries.js';
import { balanceIdHex } from '../../../src/stellar/index.js';
import { type Applied, type Harness, opResultsOf } from './harness.js';

export const unconditional = xdr.ClaimPredicate.claimPredicateUnconditional();

export const claimant = (kp: Keypair, predicate: xdr.ClaimPredicate = unconditional) =>
  xdr.Claimant.claimantTypeV0(new xdr.ClaimantV0({ destination: xdr.PublicKey.publicKeyTypeEd25519(kp.rawPublicKey()), predicate }));

const operation = (body: xdr.OperationBody, source?: Keypair) =>
  new xdr.Operation({ sourceAccount: source ? xdr.MuxedAccount.keyTypeEd25519(source.rawPublicKey()) : null, body });

const balanceId = (id: Buffer) => xdr.ClaimableBalanceId.claimableBalanceIdTypeV0(id);

/** A balance's id (its hash) as Horizon and the SDK write it: the hex of the whole ClaimableBalanceID. */
export const horizonBalanceId = (id: Buffer) => balanceIdHex(balanceId(id));

export const createBalanceOp = (asset: Asset | xdr.Asset, amount: bigint, claimants: xdr.Claimant[], source?: Keypair) =>
  operation(
    xdr.OperationBody.createClaimableBalance(
      new xdr.CreateClaimableBalanceOp({ asset: asset instanceof Asset ? asset.toXdrObject() : asset, amount, claimants }),
    ),
    source,
  );

export const claimBalanceOp = (id: Buffer, source?: Keypair) =>
  operation(xdr.OperationBody.claimClaimableBalance(new xdr.ClaimClaimableBalanceOp({ balanceId: balanceId(id) })), source);

export const clawbackBalanceOp = (id: Buffer, source?: Keypair) =>
  operation(xdr.OperationBody.clawbackClaimableBalance(new xdr.ClawbackClaimableBalanceOp({ balanceId: balanceId(id) })), source);

/** The id a successful create_claimable_balance (the operation at `index`) returned. */
export function createdBalanceId(r: Applied, index = 0): Buffer {
  const tr = xdr.expectUnionVariant(opResultsOf(r.result!)[index]!, 'opInner').tr;
  const result = xdr.expectUnionVariant(tr, 'createClaimableBalance').createClaimableBalanceResult;
  return Buffer.from(xdr.expectUnionVariant(result, 'createClaimableBalanceSuccess').balanceId.v0.value);
}

/** The core's balance with this id (the hash), if it exists. */
export function balanceOf(h: Harness, id: Buffer): ClaimableBalanceRec | undefined {
  for (const e of h.core.entries()) if (e.type === 'claimableBalance' && e.balanceId === id.toString('hex')) return e;
  return undefined;
}
