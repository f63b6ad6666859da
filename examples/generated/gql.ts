/* eslint-disable */
import * as types from './graphql.js';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "query AccountView($id: String!, $payments: Int = 10) {\n  account(id: $id) {\n    accountId\n    sequence\n    subentryCount\n    balances {\n      assetType\n      assetCode\n      assetIssuer\n      balance\n      limit\n    }\n    signers {\n      key\n      type\n      weight\n    }\n    offers(first: 10) {\n      edges {\n        node {\n          id\n          amount\n          price\n          selling {\n            assetType\n            assetCode\n            assetIssuer\n          }\n          buying {\n            assetType\n            assetCode\n            assetIssuer\n          }\n        }\n      }\n    }\n    payments(first: $payments, order: desc) {\n      edges {\n        node {\n          ...Payment\n        }\n      }\n    }\n  }\n}\n\nfragment Payment on Operation {\n  __typename\n  id\n  type\n  pagingToken\n  createdAt\n  ... on CreateAccountOperation {\n    funder\n    account\n    startingBalance\n  }\n  ... on PaymentOperation {\n    from\n    to\n    amount\n    assetType\n    assetCode\n    assetIssuer\n  }\n  transaction {\n    hash\n    memo\n    feeCharged\n    ledger {\n      sequence\n      closedAt\n    }\n  }\n}": typeof types.AccountViewDocument,
    "subscription Payments($account: String!, $cursor: String = \"now\") {\n  payments(forAccount: $account, cursor: $cursor) {\n    ...Payment\n  }\n}": typeof types.PaymentsDocument,
};
const documents: Documents = {
    "query AccountView($id: String!, $payments: Int = 10) {\n  account(id: $id) {\n    accountId\n    sequence\n    subentryCount\n    balances {\n      assetType\n      assetCode\n      assetIssuer\n      balance\n      limit\n    }\n    signers {\n      key\n      type\n      weight\n    }\n    offers(first: 10) {\n      edges {\n        node {\n          id\n          amount\n          price\n          selling {\n            assetType\n            assetCode\n            assetIssuer\n          }\n          buying {\n            assetType\n            assetCode\n            assetIssuer\n          }\n        }\n      }\n    }\n    payments(first: $payments, order: desc) {\n      edges {\n        node {\n          ...Payment\n        }\n      }\n    }\n  }\n}\n\nfragment Payment on Operation {\n  __typename\n  id\n  type\n  pagingToken\n  createdAt\n  ... on CreateAccountOperation {\n    funder\n    account\n    startingBalance\n  }\n  ... on PaymentOperation {\n    from\n    to\n    amount\n    assetType\n    assetCode\n    assetIssuer\n  }\n  transaction {\n    hash\n    memo\n    feeCharged\n    ledger {\n      sequence\n      closedAt\n    }\n  }\n}": types.AccountViewDocument,
    "subscription Payments($account: String!, $cursor: String = \"now\") {\n  payments(forAccount: $account, cursor: $cursor) {\n    ...Payment\n  }\n}": types.PaymentsDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query AccountView($id: String!, $payments: Int = 10) {\n  account(id: $id) {\n    accountId\n    sequence\n    subentryCount\n    balances {\n      assetType\n      assetCode\n      assetIssuer\n      balance\n      limit\n    }\n    signers {\n      key\n      type\n      weight\n    }\n    offers(first: 10) {\n      edges {\n        node {\n          id\n          amount\n          price\n          selling {\n            assetType\n            assetCode\n            assetIssuer\n          }\n          buying {\n            assetType\n            assetCode\n            assetIssuer\n          }\n        }\n      }\n    }\n    payments(first: $payments, order: desc) {\n      edges {\n        node {\n          ...Payment\n        }\n      }\n    }\n  }\n}\n\nfragment Payment on Operation {\n  __typename\n  id\n  type\n  pagingToken\n  createdAt\n  ... on CreateAccountOperation {\n    funder\n    account\n    startingBalance\n  }\n  ... on PaymentOperation {\n    from\n    to\n    amount\n    assetType\n    assetCode\n    assetIssuer\n  }\n  transaction {\n    hash\n    memo\n    feeCharged\n    ledger {\n      sequence\n      closedAt\n    }\n  }\n}"): typeof import('./graphql.js').AccountViewDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "subscription Payments($account: String!, $cursor: String = \"now\") {\n  payments(forAccount: $account, cursor: $cursor) {\n    ...Payment\n  }\n}"): typeof import('./graphql.js').PaymentsDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
