import { readFileSync } from 'node:fs';
import { Asset, xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import {
  innerTransactionResultCode,
  operationResultCode,
  operationResultCodes,
  transactionCodeString,
  transactionResultCode,
  transactionResultCodes,
} from '../../src/stellar/index.js';

type EnumMember = { name: string; value: number };
/** An XDR enum's members, from its schema's value → name table. */
const members = (enumClass: { readonly schema: { readonly nameByValue: ReadonlyMap<number, string> } }): EnumMember[] =>
  [...enumClass.schema.nameByValue].map(([value, name]) => ({ name, value }));

const txCode = (value: number): xdr.TransactionResultCode => xdr.TransactionResultCode.fromValue(value);

const ZERO_EXT = xdr.TransactionResultExt.v0();

function txResult(result: xdr.TransactionResultResult): xdr.TransactionResult {
  return new xdr.TransactionResult({ feeCharged: 100n, result, ext: ZERO_EXT });
}

function feeBump(
  outer: 'txFeeBumpInnerSuccess' | 'txFeeBumpInnerFailed',
  innerHash: Buffer,
  inner: xdr.InnerTransactionResultResult,
): xdr.TransactionResult {
  const pair = new xdr.InnerTransactionResultPair({
    transactionHash: innerHash,
    result: new xdr.InnerTransactionResult({
      feeCharged: 200n,
      result: inner,
      ext: xdr.InnerTransactionResultExt.v0(),
    }),
  });
  return txResult(xdr.TransactionResultResult[outer](pair));
}

const inner = (tr: xdr.OperationResultTr): xdr.OperationResult => xdr.OperationResult.opInner(tr);

/** An inner operation result decoded from raw XDR: opInner, the operation type, a void-arm code. */
function decodedInner(opType: number, code: number): xdr.OperationResult {
  const bytes = Buffer.alloc(12);
  bytes.writeInt32BE(0, 0);
  bytes.writeInt32BE(opType, 4);
  bytes.writeInt32BE(code, 8);
  return xdr.OperationResult.fromXdr(bytes);
}

// Each operation type's result-code enum (create_passive_sell_offer reports manage_sell_offer codes).
const CODE_ENUMS: Record<string, Parameters<typeof members>[0]> = {
  createAccount: xdr.CreateAccountResultCode,
  payment: xdr.PaymentResultCode,
  pathPaymentStrictReceive: xdr.PathPaymentStrictReceiveResultCode,
  manageSellOffer: xdr.ManageSellOfferResultCode,
  createPassiveSellOffer: xdr.ManageSellOfferResultCode,
  setOptions: xdr.SetOptionsResultCode,
  changeTrust: xdr.ChangeTrustResultCode,
  allowTrust: xdr.AllowTrustResultCode,
  accountMerge: xdr.AccountMergeResultCode,
  inflation: xdr.InflationResultCode,
  manageData: xdr.ManageDataResultCode,
  bumpSequence: xdr.BumpSequenceResultCode,
  manageBuyOffer: xdr.ManageBuyOfferResultCode,
  pathPaymentStrictSend: xdr.PathPaymentStrictSendResultCode,
  createClaimableBalance: xdr.CreateClaimableBalanceResultCode,
  claimClaimableBalance: xdr.ClaimClaimableBalanceResultCode,
  beginSponsoringFutureReserves: xdr.BeginSponsoringFutureReservesResultCode,
  endSponsoringFutureReserves: xdr.EndSponsoringFutureReservesResultCode,
  revokeSponsorship: xdr.RevokeSponsorshipResultCode,
  clawback: xdr.ClawbackResultCode,
  clawbackClaimableBalance: xdr.ClawbackClaimableBalanceResultCode,
  setTrustLineFlags: xdr.SetTrustLineFlagsResultCode,
  liquidityPoolDeposit: xdr.LiquidityPoolDepositResultCode,
  liquidityPoolWithdraw: xdr.LiquidityPoolWithdrawResultCode,
  invokeHostFunction: xdr.InvokeHostFunctionResultCode,
  extendFootprintTtl: xdr.ExtendFootprintTtlResultCode,
  restoreFootprint: xdr.RestoreFootprintResultCode,
};

describe('transaction codes', () => {
  it.each([
    ['txSuccess', 'tx_success'],
    ['txFailed', 'tx_failed'],
    ['txTooEarly', 'tx_too_early'],
    ['txTooLate', 'tx_too_late'],
    ['txMissingOperation', 'tx_missing_operation'],
    ['txBadSeq', 'tx_bad_seq'],
    ['txBadAuth', 'tx_bad_auth'],
    ['txInsufficientBalance', 'tx_insufficient_balance'],
    ['txNoAccount', 'tx_no_source_account'],
    ['txInsufficientFee', 'tx_insufficient_fee'],
    ['txBadAuthExtra', 'tx_bad_auth_extra'],
    ['txInternalError', 'tx_internal_error'],
    ['txNotSupported', 'tx_not_supported'],
    ['txFeeBumpInnerSuccess', 'tx_fee_bump_inner_success'],
    ['txFeeBumpInnerFailed', 'tx_fee_bump_inner_failed'],
    ['txBadSponsorship', 'tx_bad_sponsorship'],
    ['txBadMinSeqAgeOrGap', 'tx_bad_minseq_age_or_gap'],
    ['txMalformed', 'tx_malformed'],
    ['txSorobanInvalid', 'tx_soroban_invalid'],
    ['txFrozenKeyAccessed', 'tx_frozen_key_accessed'], // newer than Horizon 096f654: derived name
  ])('%s → %s', (name, code) => {
    const member = members(xdr.TransactionResultCode).find((m) => m.name === name);
    expect(member).toBeDefined();
    expect(transactionCodeString(txCode(member!.value))).toBe(code);
  });

  it('covers every TransactionResultCode of the XDR', () => {
    const codes = members(xdr.TransactionResultCode).map((m) => transactionCodeString(txCode(m.value)));
    expect(codes.length).toBe(20);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^tx_[a-z_]+$/);
  });
});

describe('operation codes', () => {
  it('maps the outer codes', () => {
    expect(operationResultCode(xdr.OperationResult.opBadAuth())).toBe('op_bad_auth');
    expect(operationResultCode(xdr.OperationResult.opNoAccount())).toBe('op_no_source_account');
    expect(operationResultCode(xdr.OperationResult.opNotSupported())).toBe('op_not_supported');
    expect(operationResultCode(xdr.OperationResult.opTooManySubentries())).toBe('op_too_many_subentries');
    expect(operationResultCode(xdr.OperationResult.opExceededWorkLimit())).toBe('op_exceeded_work_limit');
    expect(operationResultCode(xdr.OperationResult.opTooManySponsoring())).toBe('op_too_many_sponsoring'); // derived
  });

  it.each(
    (
      [
        [xdr.OperationResultTr.createAccount(xdr.CreateAccountResult.createAccountAlreadyExist()), 'op_already_exists'],
        [xdr.OperationResultTr.createAccount(xdr.CreateAccountResult.createAccountLowReserve()), 'op_low_reserve'],
        [xdr.OperationResultTr.payment(xdr.PaymentResult.paymentNoDestination()), 'op_no_destination'],
        [xdr.OperationResultTr.payment(xdr.PaymentResult.paymentSrcNoTrust()), 'op_src_no_trust'],
        [xdr.OperationResultTr.payment(xdr.PaymentResult.paymentSuccess()), 'op_success'],
        [
          xdr.OperationResultTr.pathPaymentStrictReceive(xdr.PathPaymentStrictReceiveResult.pathPaymentStrictReceiveOverSendmax()),
          'op_over_source_max',
        ],
        [
          xdr.OperationResultTr.pathPaymentStrictReceive(
            xdr.PathPaymentStrictReceiveResult.pathPaymentStrictReceiveNoIssuer(
              new Asset('USD', 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H').toXdrObject(),
            ),
          ),
          'op_no_issuer',
        ],
        [
          xdr.OperationResultTr.pathPaymentStrictSend(xdr.PathPaymentStrictSendResult.pathPaymentStrictSendUnderDestmin()),
          'op_under_dest_min',
        ],
        [xdr.OperationResultTr.manageSellOffer(xdr.ManageSellOfferResult.manageSellOfferSellNotAuthorized()), 'sell_not_authorized'],
        [xdr.OperationResultTr.manageSellOffer(xdr.ManageSellOfferResult.manageSellOfferBuyNoIssuer()), 'buy_no_issuer'],
        [xdr.OperationResultTr.manageSellOffer(xdr.ManageSellOfferResult.manageSellOfferSellNoIssuer()), 'op_sell_no_issuer'],
        [xdr.OperationResultTr.createPassiveSellOffer(xdr.ManageSellOfferResult.manageSellOfferCrossSelf()), 'op_cross_self'],
        [xdr.OperationResultTr.manageBuyOffer(xdr.ManageBuyOfferResult.manageBuyOfferBuyNotAuthorized()), 'buy_not_authorized'],
        [xdr.OperationResultTr.manageBuyOffer(xdr.ManageBuyOfferResult.manageBuyOfferNotFound()), 'op_offer_not_found'],
        [xdr.OperationResultTr.setOptions(xdr.SetOptionsResult.setOptionsAuthRevocableRequired()), 'op_auth_revocable_required'],
        [
          xdr.OperationResultTr.changeTrust(xdr.ChangeTrustResult.changeTrustNotAuthMaintainLiabilities()),
          'op_not_aut_maintain_liabilities',
        ],
        [xdr.OperationResultTr.changeTrust(xdr.ChangeTrustResult.changeTrustTrustLineMissing()), 'op_trust_line_missing'],
        [xdr.OperationResultTr.allowTrust(xdr.AllowTrustResult.allowTrustNoTrustLine()), 'op_no_trust'],
        [xdr.OperationResultTr.accountMerge(xdr.AccountMergeResult.accountMergeSeqnumTooFar()), 'op_seq_num_too_far'],
        [xdr.OperationResultTr.accountMerge(xdr.AccountMergeResult.accountMergeHasSubEntries()), 'op_has_sub_entries'],
        [xdr.OperationResultTr.accountMerge(xdr.AccountMergeResult.accountMergeIsSponsor()), 'op_is_sponsor'],
        [xdr.OperationResultTr.inflation(xdr.InflationResult.inflationNotTime()), 'op_not_time'],
        [xdr.OperationResultTr.manageData(xdr.ManageDataResult.manageDataNameNotFound()), 'op_data_name_not_found'],
        [xdr.OperationResultTr.bumpSequence(xdr.BumpSequenceResult.bumpSequenceBadSeq()), 'op_bad_seq'],
        [
          xdr.OperationResultTr.claimClaimableBalance(xdr.ClaimClaimableBalanceResult.claimClaimableBalanceDoesNotExist()),
          'op_does_not_exist',
        ],
        [
          xdr.OperationResultTr.claimClaimableBalance(xdr.ClaimClaimableBalanceResult.claimClaimableBalanceCannotClaim()),
          'op_cannot_claim',
        ],
        [
          xdr.OperationResultTr.beginSponsoringFutureReserves(
            xdr.BeginSponsoringFutureReservesResult.beginSponsoringFutureReservesAlreadySponsored(),
          ),
          'op_already_sponsored',
        ],
        [xdr.OperationResultTr.revokeSponsorship(xdr.RevokeSponsorshipResult.revokeSponsorshipOnlyTransferable()), 'op_only_transferable'],
        [xdr.OperationResultTr.clawback(xdr.ClawbackResult.clawbackNotClawbackEnabled()), 'op_not_clawback_enabled'],
        [
          xdr.OperationResultTr.clawbackClaimableBalance(xdr.ClawbackClaimableBalanceResult.clawbackClaimableBalanceNotIssuer()),
          'op_no_issuer',
        ],
        [xdr.OperationResultTr.setTrustLineFlags(xdr.SetTrustLineFlagsResult.setTrustLineFlagsInvalidState()), 'op_invalid_state'],
        [xdr.OperationResultTr.liquidityPoolDeposit(xdr.LiquidityPoolDepositResult.liquidityPoolDepositPoolFull()), 'op_pool_full'],
        [
          xdr.OperationResultTr.liquidityPoolWithdraw(xdr.LiquidityPoolWithdrawResult.liquidityPoolWithdrawUnderMinimum()),
          'op_under_minimum',
        ],
        [xdr.OperationResultTr.invokeHostFunction(xdr.InvokeHostFunctionResult.invokeHostFunctionTrapped()), 'function_trapped'],
        [xdr.OperationResultTr.invokeHostFunction(xdr.InvokeHostFunctionResult.invokeHostFunctionEntryArchived()), 'entry_archived'],
        [
          xdr.OperationResultTr.extendFootprintTtl(xdr.ExtendFootprintTtlResult.extendFootprintTtlInsufficientRefundableFee()),
          'insufficient_refundable_fee',
        ],
        [
          xdr.OperationResultTr.restoreFootprint(xdr.RestoreFootprintResult.restoreFootprintResourceLimitExceeded()),
          'resource_limit_exceeded',
        ],
      ] as const
    ).map(([tr, code]) => ({ tr, code, arm: tr.value.type })),
  )('$arm → $code (Horizon codes/main.go)', ({ tr, code }) => {
    // through XDR bytes, as results arrive from core
    const result = xdr.OperationResult.fromXdr(inner(tr).toXdr());
    expect(operationResultCode(result)).toBe(code);
  });

  it('derives names for codes newer than Horizon 096f654', () => {
    const value = (enumClass: Parameters<typeof members>[0], name: string) => members(enumClass).find((m) => m.name === name)!.value;
    expect(operationResultCode(decodedInner(15, value(xdr.ClaimClaimableBalanceResultCode, 'claimClaimableBalanceTrustlineFrozen')))).toBe(
      'op_trustline_frozen',
    );
    expect(operationResultCode(decodedInner(22, value(xdr.LiquidityPoolDepositResultCode, 'liquidityPoolDepositTrustlineFrozen')))).toBe(
      'op_trustline_frozen',
    );
    expect(operationResultCode(decodedInner(23, value(xdr.LiquidityPoolWithdrawResultCode, 'liquidityPoolWithdrawTrustlineFrozen')))).toBe(
      'op_trustline_frozen',
    );
  });

  it('gives every code of every operation a Horizon-style string', () => {
    const opTypes = members(xdr.OperationType);
    expect(Object.keys(CODE_ENUMS).sort()).toEqual(opTypes.map((m) => m.name).sort());
    let checked = 0;
    const notVoid: string[] = [];
    for (const opType of opTypes) {
      for (const code of members(CODE_ENUMS[opType.name]!)) {
        let result: xdr.OperationResult;
        try {
          result = decodedInner(opType.value, code.value);
        } catch {
          notVoid.push(code.name); // arm carries data; covered by the explicit cases above
          continue;
        }
        const text = operationResultCode(result);
        expect(text, code.name).toMatch(/^[a-z_]+$/);
        if (code.name.endsWith('Success')) expect(text, code.name).toBe('op_success');
        if (code.name.endsWith('Malformed')) expect(text, code.name).toBe('op_malformed');
        if (code.name.endsWith('Underfunded')) expect(text, code.name).toBe('op_underfunded');
        if (code.name.endsWith('LowReserve')) expect(text, code.name).toBe('op_low_reserve');
        if (code.name.endsWith('LineFull')) expect(text, code.name).toBe('op_line_full');
        checked++;
      }
    }
    for (const name of notVoid) expect(name).toMatch(/Success$|NoIssuer$/);
    expect(checked).toBeGreaterThan(180);
  });
});

describe('transaction results', () => {
  it('reads a failed transaction of Horizon scenario failed_transactions (ledger 5, tx 1)', () => {
    const sql = readFileSync(new URL('../../../shared/fixtures/horizon-scenarios/failed_transactions-core.sql', import.meta.url), 'utf8');
    const row = /INSERT INTO txhistory VALUES \('aa168f12[0-9a-f]+', 5, 1, '[^']*', '([^']*)'/.exec(sql);
    expect(row).not.toBeNull();
    const pair = xdr.TransactionResultPair.fromXdr(row![1]!, 'base64');
    expect(transactionResultCode(pair.result)).toBe('tx_failed');
    expect(operationResultCodes(pair.result)).toEqual(['op_underfunded']);
    expect(transactionResultCodes(pair.result)).toEqual({ transaction: 'tx_failed', operations: ['op_underfunded'] });
  });

  it("reads Horizon's canned bad-sequence result (txsub ErrBadSequence) without operations", () => {
    const result = xdr.TransactionResult.fromXdr('AAAAAAAAAAD////7AAAAAA==', 'base64');
    expect(transactionResultCode(result)).toBe('tx_bad_seq');
    expect(operationResultCodes(result)).toEqual([]);
    expect(transactionResultCodes(result)).toEqual({ transaction: 'tx_bad_seq' });
    expect(innerTransactionResultCode(result)).toBeUndefined();
  });

  it('lists one code per operation, in order', () => {
    const result = txResult(
      xdr.TransactionResultResult.txFailed([
        inner(xdr.OperationResultTr.payment(xdr.PaymentResult.paymentSuccess())),
        xdr.OperationResult.opBadAuth(),
        inner(xdr.OperationResultTr.createAccount(xdr.CreateAccountResult.createAccountAlreadyExist())),
        xdr.OperationResult.opNoAccount(),
      ]),
    );
    const decoded = xdr.TransactionResult.fromXdr(result.toXdr('base64'), 'base64');
    expect(transactionResultCodes(decoded)).toEqual({
      transaction: 'tx_failed',
      operations: ['op_success', 'op_bad_auth', 'op_already_exists', 'op_no_source_account'],
    });
  });

  it('reports a successful result too', () => {
    const result = txResult(
      xdr.TransactionResultResult.txSuccess([inner(xdr.OperationResultTr.bumpSequence(xdr.BumpSequenceResult.bumpSequenceSuccess()))]),
    );
    expect(transactionResultCodes(result)).toEqual({ transaction: 'tx_success', operations: ['op_success'] });
  });

  describe('fee bumps', () => {
    const innerHash = Buffer.alloc(32, 0xab);
    const failed = feeBump(
      'txFeeBumpInnerFailed',
      innerHash,
      xdr.InnerTransactionResultResult.txFailed([
        inner(xdr.OperationResultTr.payment(xdr.PaymentResult.paymentUnderfunded())),
        inner(xdr.OperationResultTr.payment(xdr.PaymentResult.paymentNoTrust())),
      ]),
    );

    it('reports the fee bump code, the inner code and the inner operations', () => {
      expect(transactionResultCode(failed)).toBe('tx_fee_bump_inner_failed');
      expect(innerTransactionResultCode(failed)).toBe('tx_failed');
      expect(operationResultCodes(failed)).toEqual(['op_underfunded', 'op_no_trust']);
      expect(transactionResultCodes(failed, 'cd'.repeat(32))).toEqual({
        transaction: 'tx_fee_bump_inner_failed',
        inner_transaction: 'tx_failed',
        operations: ['op_underfunded', 'op_no_trust'],
      });
      expect(transactionResultCodes(failed)).toEqual(transactionResultCodes(failed, 'cd'.repeat(32)));
    });

    it('shows the inner code as `transaction` to whoever submitted the inner transaction', () => {
      const expected = { transaction: 'tx_failed', operations: ['op_underfunded', 'op_no_trust'] };
      expect(transactionResultCodes(failed, 'ab'.repeat(32))).toEqual(expected);
      expect(transactionResultCodes(failed, 'AB'.repeat(32))).toEqual(expected);
    });

    it('handles an inner failure before any operation ran', () => {
      const early = feeBump('txFeeBumpInnerFailed', innerHash, xdr.InnerTransactionResultResult.txBadSeq());
      expect(transactionResultCodes(xdr.TransactionResult.fromXdr(early.toXdr()))).toEqual({
        transaction: 'tx_fee_bump_inner_failed',
        inner_transaction: 'tx_bad_seq',
      });
    });

    it('handles an inner success', () => {
      const ok = feeBump(
        'txFeeBumpInnerSuccess',
        innerHash,
        xdr.InnerTransactionResultResult.txSuccess([inner(xdr.OperationResultTr.payment(xdr.PaymentResult.paymentSuccess()))]),
      );
      expect(transactionResultCodes(ok)).toEqual({
        transaction: 'tx_fee_bump_inner_success',
        inner_transaction: 'tx_success',
        operations: ['op_success'],
      });
    });
  });
});
