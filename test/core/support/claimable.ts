// Claimable balance operations built from raw XDR (any predicate, amount or claimant list, so
// malformed ones too), for the core's tests and the ingestion of what the core made.
import { Asset, type Keypair, xdr } from '@stellar/stellar-sdk/base';

export const unconditional = xdr.ClaimPredicate.claimPredicateUnconditional();

export const claimant = (kp: Keypair, predicate: xdr.ClaimPredicate = unconditional) =>
  xdr.Claimant.claimantTypeV0(new xdr.ClaimantV0({ destination: xdr.PublicKey.publicKeyTypeEd25519(kp.rawPublicKey()), predicate }));

const operation = (body: xdr.OperationBody, source?: Keypair) =>
  new xdr.Operation({ sourceAccount: source ? xdr.MuxedAccount.keyTypeEd25519(source.rawPublicKey()) : null, body });

const balanceId = (id: Buffer) => xdr.ClaimableBalanceId.claimableBalanceIdTypeV0(id);

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
