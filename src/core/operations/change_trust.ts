// change_trust: creates, updates (limit) or removes (limit 0) a trust line to a credit asset.
import type { xdr } from '@stellar/stellar-sdk/base';
import { assetFromXdr, isAssetValid, type CreditAsset } from '../../stellar/index.js';
import { accountKey, trustLineKey } from '../ledger/entries.js';
import type { AccountRec, TrustLineRec } from '../ledger/entries.js';
import { opInner, opOuter } from '../ledger/results.js';
import type { OperationDef } from './context.js';
import {
  AUTH_CLAWBACK_ENABLED_FLAG,
  AUTH_REQUIRED_FLAG,
  TL_AUTHORIZED_FLAG,
  TL_CLAWBACK_ENABLED_FLAG,
  loadAccount,
  opBody,
} from './helpers.js';
import { createEntryWithPossibleSponsorship, removeEntryWithPossibleSponsorship, sponsorshipFailure } from './sponsorship.js';

const T = 'changeTrust';
const fail = (code: string) => ({ success: false, result: opInner(T, code) });

// checkValid has ruled out the native asset and pool shares
const changeTrustAsset = (line: xdr.ChangeTrustAsset): CreditAsset => assetFromXdr(line) as CreditAsset;

export const changeTrust: OperationDef = {
  threshold: () => 'medium',
  supported: true,
  checkValid(op, sourceId) {
    const b = opBody(op, T).changeTrustOp;
    if (b.limit < 0n) return opInner(T, 'changeTrustMalformed');
    const line = b.line;
    if (line.type === 'assetTypeNative') return opInner(T, 'changeTrustMalformed');
    if (line.type === 'assetTypePoolShare') return opOuter('opNotSupported');
    if (!isAssetValid(line)) return opInner(T, 'changeTrustMalformed');
    if (changeTrustAsset(line).issuer === sourceId) return opInner(T, 'changeTrustMalformed');
    return null;
  },
  apply(ctx) {
    const b = opBody(ctx.op, T).changeTrustOp;
    const asset = changeTrustAsset(b.line);
    const limit = b.limit;
    if (asset.issuer === ctx.sourceId) return fail('changeTrustSelfNotAllowed');
    const key = trustLineKey(ctx.sourceId, asset);
    const existing = ctx.ltx.load<TrustLineRec>(key);
    if (existing) {
      if (limit < existing.balance + existing.buyingLiabilities) return fail('changeTrustInvalidLimit');
      if (limit === 0n) {
        // a line that pool-share lines depend on stays
        if (existing.liquidityPoolUseCount !== 0) return fail('changeTrustCannotDelete');
        const source = loadAccount(ctx.ltx, ctx.sourceId)!;
        removeEntryWithPossibleSponsorship(ctx.ltx, existing, source);
        ctx.ltx.erase(key);
      } else {
        if (!ctx.ltx.get(accountKey(asset.issuer))) return fail('changeTrustNoIssuer');
        existing.limit = limit;
      }
      return { success: true, result: opInner(T, 'changeTrustSuccess') };
    }
    if (limit === 0n) return fail('changeTrustInvalidLimit');
    const issuer = ctx.ltx.get(accountKey(asset.issuer)) as AccountRec | undefined;
    if (!issuer) return fail('changeTrustNoIssuer');
    let flags = 0;
    if (!(issuer.flags & AUTH_REQUIRED_FLAG)) flags = TL_AUTHORIZED_FLAG;
    if (issuer.flags & AUTH_CLAWBACK_ENABLED_FLAG) flags |= TL_CLAWBACK_ENABLED_FLAG;
    const line: TrustLineRec = {
      type: 'trustline',
      accountId: ctx.sourceId,
      asset,
      balance: 0n,
      limit,
      flags,
      extLevel: 0,
      buyingLiabilities: 0n,
      sellingLiabilities: 0n,
      liquidityPoolUseCount: 0,
      lastModified: 0,
    };
    const source = loadAccount(ctx.ltx, ctx.sourceId)!;
    const r = createEntryWithPossibleSponsorship(ctx.ltx, ctx.header, line, source);
    if (r !== 'ok') return sponsorshipFailure(r, opInner(T, 'changeTrustLowReserve'));
    ctx.ltx.create(line);
    return { success: true, result: opInner(T, 'changeTrustSuccess') };
  },
};
