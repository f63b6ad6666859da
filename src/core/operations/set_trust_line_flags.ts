// set_trust_line_flags: the issuer (source) sets and clears flags of a trustor's line to its asset
// (stellar-core SetTrustLineFlagsOpFrame, protocol ≥ 17, on TrustFlagsOpFrameBase's apply).
import { accountIdFromXdr, assetFromXdr, isAssetValid, type CreditAsset } from '../../stellar/index.js';
import { opInner } from '../ledger/results.js';
import type { OperationDef } from './context.js';
import {
  AUTH_REVOCABLE_FLAG,
  TL_AUTHORIZED_FLAG,
  TL_CLAWBACK_ENABLED_FLAG,
  TRUSTLINE_AUTH_FLAGS,
  opBody,
  trustLineFlagAuthIsValid,
  trustLineFlagIsValid,
  trustLineFlagMaskCheckIsValid,
} from './helpers.js';
import { applyTrustFlags } from './trust_flags.js';

const T = 'setTrustLineFlags';

export const setTrustLineFlags: OperationDef = {
  threshold: () => 'low',
  supported: true,
  checkValid(op, sourceId) {
    const b = opBody(op, T).setTrustLineFlagsOp;
    const malformed = opInner(T, 'setTrustLineFlagsMalformed');
    if (b.asset.type === 'assetTypeNative' || !isAssetValid(b.asset)) return malformed;
    if ((assetFromXdr(b.asset) as CreditAsset).issuer !== sourceId) return malformed;
    if (accountIdFromXdr(b.trustor) === sourceId) return malformed;
    if ((b.setFlags & b.clearFlags) !== 0) return malformed;
    // the flags set follow the rules of a line's flags, and clawback can only be cleared
    if (!trustLineFlagIsValid(b.setFlags) || (b.setFlags & TL_CLAWBACK_ENABLED_FLAG) !== 0) return malformed;
    if (!trustLineFlagMaskCheckIsValid(b.clearFlags)) return malformed;
    return null;
  },
  apply(ctx) {
    const b = opBody(ctx.op, T).setTrustLineFlagsOp;
    const { setFlags, clearFlags } = b;
    return applyTrustFlags(ctx, {
      type: T,
      trustor: accountIdFromXdr(b.trustor),
      asset: assetFromXdr(b.asset) as CreditAsset,
      codes: {
        selfNotAllowed: null,
        noTrustLine: 'setTrustLineFlagsNoTrustLine',
        lowReserve: 'setTrustLineFlagsLowReserve',
        success: 'setTrustLineFlagsSuccess',
      },
      // without AUTH_REVOCABLE, clearing an authorization flag is only an upgrade to AUTHORIZED
      authRevocationFailure: (source) =>
        (source.flags & AUTH_REVOCABLE_FLAG) === 0 && (clearFlags & TRUSTLINE_AUTH_FLAGS) !== 0 && (setFlags & TL_AUTHORIZED_FLAG) === 0
          ? 'setTrustLineFlagsCantRevoke'
          : null,
      expectedFlags: (line) => {
        const expected = ((line.flags & ~clearFlags) | setFlags) >>> 0;
        return trustLineFlagAuthIsValid(expected) ? expected : 'setTrustLineFlagsInvalidState';
      },
      maintainLiabilitiesFailure: () => null,
    });
  },
};
