// create_account: funds a new account from the source's available balance.
import { accountIdFromXdr, startingSequenceNumber } from '../../stellar/index.js';
import { newAccount } from '../ledger/entries.js';
import { opInner } from '../ledger/results.js';
import type { OperationDef } from './context.js';
import { accountExists, addAccountBalance, availableBalance, loadAccount, opBody } from './helpers.js';
import { createEntryWithPossibleSponsorship, sponsorshipFailure } from './sponsorship.js';

const T = 'createAccount';

export const createAccount: OperationDef = {
  threshold: () => 'medium',
  supported: true,
  checkValid(op, sourceId) {
    const body = opBody(op, T).createAccountOp;
    if (body.startingBalance < 0n) return opInner(T, 'createAccountMalformed');
    if (accountIdFromXdr(body.destination) === sourceId) return opInner(T, 'createAccountMalformed');
    return null;
  },
  apply(ctx) {
    const body = opBody(ctx.op, T).createAccountOp;
    const dest = accountIdFromXdr(body.destination);
    const amount = body.startingBalance;
    if (accountExists(ctx.ltx, dest)) return { success: false, result: opInner(T, 'createAccountAlreadyExist') };
    const created = newAccount(dest, amount, startingSequenceNumber(ctx.header.ledgerSeq), ctx.header.ledgerSeq);
    const sponsored = createEntryWithPossibleSponsorship(ctx.ltx, ctx.header, created, null);
    if (sponsored !== 'ok') return sponsorshipFailure(sponsored, opInner(T, 'createAccountLowReserve'));
    const source = loadAccount(ctx.ltx, ctx.sourceId)!;
    if (availableBalance(ctx.header, source) < amount) {
      return { success: false, result: opInner(T, 'createAccountUnderfunded') };
    }
    if (!addAccountBalance(ctx.header, source, -amount)) throw new Error('create_account: balance invariant');
    ctx.ltx.create(created);
    return { success: true, result: opInner(T, 'createAccountSuccess') };
  },
};
