/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type AccountViewQueryVariables = Exact<{
  id: string;
  payments?: number | null | undefined;
}>;


export type AccountViewQuery = { account: { accountId: string, sequence: string, subentryCount: number, balances: Array<{ assetType: string, assetCode: string | null, assetIssuer: string | null, balance: string, limit: string | null }>, signers: Array<{ key: string, type: string, weight: number }>, offers: { edges: Array<{ node: { id: string, amount: string, price: string, selling: { assetType: string, assetCode: string | null, assetIssuer: string | null }, buying: { assetType: string, assetCode: string | null, assetIssuer: string | null } } }> }, payments: { edges: Array<{ node:
          | { __typename: 'AccountMergeOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'AllowTrustOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'BeginSponsoringFutureReservesOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'BumpSequenceOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'ChangeTrustOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'ClaimClaimableBalanceOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'ClawbackClaimableBalanceOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'ClawbackOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'CreateAccountOperation', funder: string | null, account: string | null, startingBalance: string | null, id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'CreateClaimableBalanceOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'CreatePassiveSellOfferOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'EndSponsoringFutureReservesOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'ExtendFootprintTtlOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'InflationOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'InvokeHostFunctionOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'LiquidityPoolDepositOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'LiquidityPoolWithdrawOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'ManageBuyOfferOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'ManageDataOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'ManageSellOfferOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'PathPaymentStrictReceiveOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'PathPaymentStrictSendOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'PaymentOperation', from: string | null, to: string | null, amount: string | null, assetType: string | null, assetCode: string | null, assetIssuer: string | null, id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'RestoreFootprintOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'RevokeSponsorshipOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'SetOptionsOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
          | { __typename: 'SetTrustLineFlagsOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
         }> } } | null };

type Payment_AccountMergeOperation_Fragment = { __typename: 'AccountMergeOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_AllowTrustOperation_Fragment = { __typename: 'AllowTrustOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_BeginSponsoringFutureReservesOperation_Fragment = { __typename: 'BeginSponsoringFutureReservesOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_BumpSequenceOperation_Fragment = { __typename: 'BumpSequenceOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_ChangeTrustOperation_Fragment = { __typename: 'ChangeTrustOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_ClaimClaimableBalanceOperation_Fragment = { __typename: 'ClaimClaimableBalanceOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_ClawbackClaimableBalanceOperation_Fragment = { __typename: 'ClawbackClaimableBalanceOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_ClawbackOperation_Fragment = { __typename: 'ClawbackOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_CreateAccountOperation_Fragment = { __typename: 'CreateAccountOperation', funder: string | null, account: string | null, startingBalance: string | null, id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_CreateClaimableBalanceOperation_Fragment = { __typename: 'CreateClaimableBalanceOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_CreatePassiveSellOfferOperation_Fragment = { __typename: 'CreatePassiveSellOfferOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_EndSponsoringFutureReservesOperation_Fragment = { __typename: 'EndSponsoringFutureReservesOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_ExtendFootprintTtlOperation_Fragment = { __typename: 'ExtendFootprintTtlOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_InflationOperation_Fragment = { __typename: 'InflationOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_InvokeHostFunctionOperation_Fragment = { __typename: 'InvokeHostFunctionOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_LiquidityPoolDepositOperation_Fragment = { __typename: 'LiquidityPoolDepositOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_LiquidityPoolWithdrawOperation_Fragment = { __typename: 'LiquidityPoolWithdrawOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_ManageBuyOfferOperation_Fragment = { __typename: 'ManageBuyOfferOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_ManageDataOperation_Fragment = { __typename: 'ManageDataOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_ManageSellOfferOperation_Fragment = { __typename: 'ManageSellOfferOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_PathPaymentStrictReceiveOperation_Fragment = { __typename: 'PathPaymentStrictReceiveOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_PathPaymentStrictSendOperation_Fragment = { __typename: 'PathPaymentStrictSendOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_PaymentOperation_Fragment = { __typename: 'PaymentOperation', from: string | null, to: string | null, amount: string | null, assetType: string | null, assetCode: string | null, assetIssuer: string | null, id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_RestoreFootprintOperation_Fragment = { __typename: 'RestoreFootprintOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_RevokeSponsorshipOperation_Fragment = { __typename: 'RevokeSponsorshipOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_SetOptionsOperation_Fragment = { __typename: 'SetOptionsOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

type Payment_SetTrustLineFlagsOperation_Fragment = { __typename: 'SetTrustLineFlagsOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } };

export type PaymentFragment =
  | Payment_AccountMergeOperation_Fragment
  | Payment_AllowTrustOperation_Fragment
  | Payment_BeginSponsoringFutureReservesOperation_Fragment
  | Payment_BumpSequenceOperation_Fragment
  | Payment_ChangeTrustOperation_Fragment
  | Payment_ClaimClaimableBalanceOperation_Fragment
  | Payment_ClawbackClaimableBalanceOperation_Fragment
  | Payment_ClawbackOperation_Fragment
  | Payment_CreateAccountOperation_Fragment
  | Payment_CreateClaimableBalanceOperation_Fragment
  | Payment_CreatePassiveSellOfferOperation_Fragment
  | Payment_EndSponsoringFutureReservesOperation_Fragment
  | Payment_ExtendFootprintTtlOperation_Fragment
  | Payment_InflationOperation_Fragment
  | Payment_InvokeHostFunctionOperation_Fragment
  | Payment_LiquidityPoolDepositOperation_Fragment
  | Payment_LiquidityPoolWithdrawOperation_Fragment
  | Payment_ManageBuyOfferOperation_Fragment
  | Payment_ManageDataOperation_Fragment
  | Payment_ManageSellOfferOperation_Fragment
  | Payment_PathPaymentStrictReceiveOperation_Fragment
  | Payment_PathPaymentStrictSendOperation_Fragment
  | Payment_PaymentOperation_Fragment
  | Payment_RestoreFootprintOperation_Fragment
  | Payment_RevokeSponsorshipOperation_Fragment
  | Payment_SetOptionsOperation_Fragment
  | Payment_SetTrustLineFlagsOperation_Fragment
;

export type PaymentsSubscriptionVariables = Exact<{
  account: string;
  cursor?: string | null | undefined;
}>;


export type PaymentsSubscription = { payments:
    | { __typename: 'AccountMergeOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'AllowTrustOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'BeginSponsoringFutureReservesOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'BumpSequenceOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'ChangeTrustOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'ClaimClaimableBalanceOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'ClawbackClaimableBalanceOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'ClawbackOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'CreateAccountOperation', funder: string | null, account: string | null, startingBalance: string | null, id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'CreateClaimableBalanceOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'CreatePassiveSellOfferOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'EndSponsoringFutureReservesOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'ExtendFootprintTtlOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'InflationOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'InvokeHostFunctionOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'LiquidityPoolDepositOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'LiquidityPoolWithdrawOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'ManageBuyOfferOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'ManageDataOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'ManageSellOfferOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'PathPaymentStrictReceiveOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'PathPaymentStrictSendOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'PaymentOperation', from: string | null, to: string | null, amount: string | null, assetType: string | null, assetCode: string | null, assetIssuer: string | null, id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'RestoreFootprintOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'RevokeSponsorshipOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'SetOptionsOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
    | { __typename: 'SetTrustLineFlagsOperation', id: string, type: string, pagingToken: string, createdAt: string, transaction: { hash: string, memo: string | null, feeCharged: string, ledger: { sequence: number, closedAt: string } } }
   };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const PaymentFragmentDoc = new TypedDocumentString(`
    fragment Payment on Operation {
  __typename
  id
  type
  pagingToken
  createdAt
  ... on CreateAccountOperation {
    funder
    account
    startingBalance
  }
  ... on PaymentOperation {
    from
    to
    amount
    assetType
    assetCode
    assetIssuer
  }
  transaction {
    hash
    memo
    feeCharged
    ledger {
      sequence
      closedAt
    }
  }
}
    `, {"fragmentName":"Payment"}) as unknown as TypedDocumentString<PaymentFragment, unknown>;
export const AccountViewDocument = new TypedDocumentString(`
    query AccountView($id: String!, $payments: Int = 10) {
  account(id: $id) {
    accountId
    sequence
    subentryCount
    balances {
      assetType
      assetCode
      assetIssuer
      balance
      limit
    }
    signers {
      key
      type
      weight
    }
    offers(first: 10) {
      edges {
        node {
          id
          amount
          price
          selling {
            assetType
            assetCode
            assetIssuer
          }
          buying {
            assetType
            assetCode
            assetIssuer
          }
        }
      }
    }
    payments(first: $payments, order: desc) {
      edges {
        node {
          ...Payment
        }
      }
    }
  }
}
    fragment Payment on Operation {
  __typename
  id
  type
  pagingToken
  createdAt
  ... on CreateAccountOperation {
    funder
    account
    startingBalance
  }
  ... on PaymentOperation {
    from
    to
    amount
    assetType
    assetCode
    assetIssuer
  }
  transaction {
    hash
    memo
    feeCharged
    ledger {
      sequence
      closedAt
    }
  }
}`) as unknown as TypedDocumentString<AccountViewQuery, AccountViewQueryVariables>;
export const PaymentsDocument = new TypedDocumentString(`
    subscription Payments($account: String!, $cursor: String = "now") {
  payments(forAccount: $account, cursor: $cursor) {
    ...Payment
  }
}
    fragment Payment on Operation {
  __typename
  id
  type
  pagingToken
  createdAt
  ... on CreateAccountOperation {
    funder
    account
    startingBalance
  }
  ... on PaymentOperation {
    from
    to
    amount
    assetType
    assetCode
    assetIssuer
  }
  transaction {
    hash
    memo
    feeCharged
    ledger {
      sequence
      closedAt
    }
  }
}`) as unknown as TypedDocumentString<PaymentsSubscription, PaymentsSubscriptionVariables>;