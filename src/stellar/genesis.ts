// Genesis as stellar-core makes it: ledger 1, the root account (seed = the network id) holding
// every stroop, sequence number 0. LedgerCloseMeta only carries changes, so an ingester starting at
// ledger 1 needs the root account from here (real Horizon reads it from the history archive).
import { Keypair, xdr } from '@stellar/stellar-sdk/base';
import { accountIdToXdr } from './account_id.js';
import { networkId } from './network.js';

export const GENESIS_LEDGER_SEQ = 1;
/** 100 billion lumens, in stroops: all there is, held by the root account at genesis. */
export const TOTAL_COINS = 1_000_000_000_000_000_000n;

export function rootKeypair(networkPassphrase: string): Keypair {
  return Keypair.fromRawEd25519Seed(networkId(networkPassphrase));
}

/** The ledger entries that exist before ledger 1's changes: the root account alone. */
export function genesisLedgerEntries(networkPassphrase: string): xdr.LedgerEntry[] {
  const account = new xdr.AccountEntry({
    accountId: accountIdToXdr(rootKeypair(networkPassphrase).publicKey()),
    balance: TOTAL_COINS,
    seqNum: 0n,
    numSubEntries: 0,
    inflationDest: null,
    flags: 0,
    homeDomain: new Uint8Array(0),
    thresholds: new Uint8Array([1, 0, 0, 0]),
    signers: [],
    ext: xdr.AccountEntryExt.v0(),
  });
  return [
    new xdr.LedgerEntry({
      lastModifiedLedgerSeq: GENESIS_LEDGER_SEQ,
      data: xdr.LedgerEntryData.account(account),
      ext: xdr.LedgerEntryExt.v0(),
    }),
  ];
}
