// What the page takes of @stellar/stellar-sdk (its protocol part), named so the bundler leaves the
// rest out: this module is the chunk sdk.ts loads when a view needs it.
export { Account, Asset, BASE_FEE, Keypair, Memo, MuxedAccount, Operation, StrKey, TransactionBuilder } from '@stellar/stellar-sdk/base';
