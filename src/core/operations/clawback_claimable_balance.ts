// clawback_claimable_balance: the issuer of a balance's asset removes a balance created with
// clawback enabled; the amount goes nowhere (it is burned), the reserve back to its sponsor.
import { opInner } from '../ledger/results.js';
import { eraseClaimableBalance, loadClaimableBalance } from './claim_claimable_balance.js';
import type { OperationDef } from './context.js';
import { CLAIMABLE_BALANCE_CLAWBACK_ENABLED_FLAG, opBody } from './helpers.js';

const T = 'clawbackClaimableBalance';
const fail = (code: string) => ({ success: false, result: opInner(T, code) });

export const clawbackClaimableBalance: OperationDef = {
  threshold: () => 'medium',
  supported: true,
  checkValid: () => null,
  apply(ctx) {
    const { key, balance } = loadClaimableBalance(ctx, opBody(ctx.op, T).clawbackClaimableBalanceOp.balanceId);
    if (!balance) return fail('clawbackClaimableBalanceDoesNotExist');
    if (balance.asset.type === 'native' || balance.asset.issuer !== ctx.sourceId) return fail('clawbackClaimableBalanceNotIssuer');
    if (balance.extLevel < 1 || (balance.flags & CLAIMABLE_BALANCE_CLAWBACK_ENABLED_FLAG) === 0) {
      return fail('clawbackClaimableBalanceNotClawbackEnabled');
    }
    eraseClaimableBalance(ctx, key, balance);
    return { success: true, result: opInner(T, 'clawbackClaimableBalanceSuccess') };
  },
};
