// allow_trust: the issuer (source) sets the authorization flags of a trustor's line to its asset
// (stellar-core AllowTrustOpFrame, on TrustFlagsOpFrameBase's apply).
import type { xdr } from '@stellar/stellar-sdk/base';
import { accountIdFromXdr, allowTrustAsset, isAssetCodeValid } from '../../stellar/index.js';
import { asBuffer } from '../../stellar/bytes.js';
import { opInner } from '../ledger/results.js';
import type { OperationDef } from './context.js';
import {
  AUTH_REVOCABLE_FLAG,
  TL_AUTHORIZED_FLAG,
  TL_AUTHORIZED_TO_MAINTAIN_LIABILITIES_FLAG,
  TRUSTLINE_AUTH_FLAGS,
  opBody,
  trustLineFlagIsValid,
} from './helpers.js';
import { applyTrustFlags } from './trust_flags.js';

const T = 'allowTrust';

/** The code bytes of the operation's asset; null for a native asset. */
function opAssetCode(op: xdr.AllowTrustOp): Buffer | null {
  const a = op.asset;
  if (a.type === 'assetTypeCreditAlphanum4') return asBuffer(a.assetCode4.value);
  if (a.type === 'assetTypeCreditAlphanum12') return asBuffer(a.assetCode12.value);
  return null;
}

const isRevocable = (source: { flags: number }): boolean => (source.flags & AUTH_REVOCABLE_FLAG) !== 0;

export const allowTrust: OperationDef = {
  threshold: () => 'low',
  supported: true,
  checkValid(op, sourceId) {
    const b = opBody(op, T).allowTrustOp;
    const code = opAssetCode(b);
    if (code === null) return opInner(T, 'allowTrustMalformed');
    if (b.authorize > TL_AUTHORIZED_TO_MAINTAIN_LIABILITIES_FLAG) return opInner(T, 'allowTrustMalformed');
    if (!trustLineFlagIsValid(b.authorize)) return opInner(T, 'allowTrustMalformed');
    if (!isAssetCodeValid(code)) return opInner(T, 'allowTrustMalformed');
    if (accountIdFromXdr(b.trustor) === sourceId) return opInner(T, 'allowTrustMalformed');
    return null;
  },
  apply(ctx) {
    const b = opBody(ctx.op, T).allowTrustOp;
    const authorize = b.authorize;
    return applyTrustFlags(ctx, {
      type: T,
      trustor: accountIdFromXdr(b.trustor),
      asset: allowTrustAsset(b, ctx.sourceId),
      codes: {
        selfNotAllowed: 'allowTrustSelfNotAllowed',
        noTrustLine: 'allowTrustNoTrustLine',
        lowReserve: 'allowTrustLowReserve',
        success: 'allowTrustSuccess',
      },
      authRevocationFailure: (source) => (!isRevocable(source) && authorize === 0 ? 'allowTrustCantRevoke' : null),
      expectedFlags: (line) => (line.flags & ~TRUSTLINE_AUTH_FLAGS) | authorize,
      // without AUTH_REVOCABLE an authorized line may not drop to maintaining liabilities only
      maintainLiabilitiesFailure: (source, line, expected) =>
        !isRevocable(source) && line.flags & TL_AUTHORIZED_FLAG && expected & TL_AUTHORIZED_TO_MAINTAIN_LIABILITIES_FLAG
          ? 'allowTrustCantRevoke'
          : null,
    });
  },
};
