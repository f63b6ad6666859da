// allow_trust: the issuer (source) sets the authorization flags of a trustor's line to its asset.
import type { xdr } from '@stellar/stellar-sdk/base';
import { accountIdFromXdr, allowTrustAsset, isAssetCodeValid } from '../../stellar/index.js';
import { accountKey, trustLineKey } from '../ledger/entries.js';
import type { AccountRec, TrustLineRec } from '../ledger/entries.js';
import { asBuffer } from '../../stellar/bytes.js';
import { opInner, opOuter } from '../ledger/results.js';
import type { OperationDef } from './context.js';
import {
  AUTH_REVOCABLE_FLAG,
  TL_AUTHORIZED_FLAG,
  TL_AUTHORIZED_TO_MAINTAIN_LIABILITIES_FLAG,
  isAuthorizedToMaintainLiabilities,
  opBody,
} from './helpers.js';
import { removeOffersAndPoolShareTrustLines } from './pool_shares.js';

const T = 'allowTrust';
const TRUSTLINE_AUTH_FLAGS = TL_AUTHORIZED_FLAG | TL_AUTHORIZED_TO_MAINTAIN_LIABILITIES_FLAG;
const fail = (code: string) => ({ success: false, result: opInner(T, code) });

/** The code bytes of the operation's asset; null for a native asset. */
function opAssetCode(op: xdr.AllowTrustOp): Buffer | null {
  const a = op.asset;
  if (a.type === 'assetTypeCreditAlphanum4') return asBuffer(a.assetCode4.value);
  if (a.type === 'assetTypeCreditAlphanum12') return asBuffer(a.assetCode12.value);
  return null;
}

export const allowTrust: OperationDef = {
  threshold: () => 'low',
  supported: true,
  checkValid(op, sourceId) {
    const b = opBody(op, T).allowTrustOp;
    const code = opAssetCode(b);
    if (code === null) return opInner(T, 'allowTrustMalformed');
    const authorize = b.authorize;
    if (authorize > TL_AUTHORIZED_TO_MAINTAIN_LIABILITIES_FLAG) return opInner(T, 'allowTrustMalformed');
    // both authorization flags at once is not a valid trust line state (trustLineFlagIsValid)
    if ((authorize & TRUSTLINE_AUTH_FLAGS) === TRUSTLINE_AUTH_FLAGS) return opInner(T, 'allowTrustMalformed');
    if (!isAssetCodeValid(code)) return opInner(T, 'allowTrustMalformed');
    if (accountIdFromXdr(b.trustor) === sourceId) return opInner(T, 'allowTrustMalformed');
    return null;
  },
  apply(ctx) {
    const b = opBody(ctx.op, T).allowTrustOp;
    const trustor = accountIdFromXdr(b.trustor);
    const authorize = b.authorize;
    if (trustor === ctx.sourceId) return fail('allowTrustSelfNotAllowed');
    const source = ctx.ltx.get(accountKey(ctx.sourceId)) as AccountRec;
    const revocable = (source.flags & AUTH_REVOCABLE_FLAG) !== 0;
    if (!revocable && authorize === 0) return fail('allowTrustCantRevoke');
    const asset = allowTrustAsset(b, ctx.sourceId);
    const key = trustLineKey(trustor, asset);
    const current = ctx.ltx.get(key) as TrustLineRec | undefined;
    if (!current) return fail('allowTrustNoTrustLine');
    const expected = (current.flags & ~TRUSTLINE_AUTH_FLAGS) | authorize;
    if (!revocable && current.flags & TL_AUTHORIZED_FLAG && expected & TL_AUTHORIZED_TO_MAINTAIN_LIABILITIES_FLAG) {
      return fail('allowTrustCantRevoke');
    }
    if (isAuthorizedToMaintainLiabilities(current.flags) && !isAuthorizedToMaintainLiabilities(expected)) {
      const removed = removeOffersAndPoolShareTrustLines(ctx, trustor, asset);
      if (removed === 'lowReserve') return fail('allowTrustLowReserve');
      if (removed === 'tooManySponsoring') return { success: false, result: opOuter('opTooManySponsoring') };
    }
    const line = ctx.ltx.load<TrustLineRec>(key)!;
    line.flags = expected;
    return { success: true, result: opInner(T, 'allowTrustSuccess') };
  },
};
