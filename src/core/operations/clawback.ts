// clawback: the issuer (source) takes an amount of its asset back from a line created while it had
// AUTH_CLAWBACK_ENABLED; the amount is burned (stellar-core ClawbackOpFrame, protocol ≥ 17).
import { assetFromXdr, isAssetValid, muxedAccountBase, type CreditAsset } from '../../stellar/index.js';
import { trustLineKey } from '../ledger/entries.js';
import type { TrustLineRec } from '../ledger/entries.js';
import { opInner } from '../ledger/results.js';
import type { OperationDef } from './context.js';
import { TL_CLAWBACK_ENABLED_FLAG, addTrustLineBalance, opBody } from './helpers.js';

const T = 'clawback';
const fail = (code: string) => ({ success: false, result: opInner(T, code) });

export const clawback: OperationDef = {
  threshold: () => 'medium',
  supported: true,
  checkValid(op, sourceId) {
    const b = opBody(op, T).clawbackOp;
    const malformed = opInner(T, 'clawbackMalformed');
    // stellar-core compares the MuxedAccount: a muxed form of the source is not the source here
    const from = b.from;
    if (from.type === 'keyTypeEd25519' && muxedAccountBase(from) === sourceId) return malformed;
    if (b.amount < 1n) return malformed;
    if (b.asset.type === 'assetTypeNative' || !isAssetValid(b.asset)) return malformed;
    if ((assetFromXdr(b.asset) as CreditAsset).issuer !== sourceId) return malformed;
    return null;
  },
  apply(ctx) {
    const b = opBody(ctx.op, T).clawbackOp;
    const line = ctx.ltx.load<TrustLineRec>(trustLineKey(muxedAccountBase(b.from), assetFromXdr(b.asset) as CreditAsset));
    if (!line) return fail('clawbackNoTrust');
    if ((line.flags & TL_CLAWBACK_ENABLED_FLAG) === 0) return fail('clawbackNotClawbackEnabled');
    // addBalanceSkipAuthorization: a deauthorized line can be clawed back, down to its selling liabilities
    if (!addTrustLineBalance(line, -b.amount)) return fail('clawbackUnderfunded');
    return { success: true, result: opInner(T, 'clawbackSuccess') };
  },
};
