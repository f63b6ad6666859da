// Genesis as stellar-core makes it: ledger 1, the root account (seed = sha256(passphrase)) holding
// every stroop, sequence number 0.
import { createHash } from 'node:crypto';
import { Keypair } from '@stellar/stellar-base';
import { newAccount } from './entries.js';
import type { AccountRec } from './entries.js';
import { ZERO_HASH } from './header.js';
import type { LedgerHeaderRec } from './header.js';

/** The protocol whose classic semantics this core implements (see docs/core.md). */
export const PROTOCOL_VERSION = 22;
export const TOTAL_COINS = 1_000_000_000_000_000_000n;
export const GENESIS_LEDGER_SEQ = 1;

export interface GenesisParams {
  networkPassphrase: string;
  baseFee: number;
  baseReserve: number;
  maxTxSetSize: number;
}

export function rootKeypair(networkPassphrase: string): Keypair {
  return Keypair.fromRawEd25519Seed(createHash('sha256').update(networkPassphrase).digest());
}

export function genesisRootAccount(networkPassphrase: string): AccountRec {
  return newAccount(rootKeypair(networkPassphrase).publicKey(), TOTAL_COINS, 0n, GENESIS_LEDGER_SEQ);
}

export function genesisHeader(p: GenesisParams): LedgerHeaderRec {
  return {
    ledgerVersion: PROTOCOL_VERSION,
    previousLedgerHash: ZERO_HASH,
    txSetHash: ZERO_HASH,
    closeTime: 0n,
    txSetResultHash: ZERO_HASH,
    // stands in for the BucketList hash: depends on the network and the genesis parameters
    bucketListHash: createHash('sha256').update(`${p.networkPassphrase}|${p.baseFee}|${p.baseReserve}|${p.maxTxSetSize}`).digest(),
    ledgerSeq: GENESIS_LEDGER_SEQ,
    totalCoins: TOTAL_COINS,
    feePool: 0n,
    inflationSeq: 0,
    idPool: 0n,
    baseFee: p.baseFee,
    baseReserve: p.baseReserve,
    maxTxSetSize: p.maxTxSetSize,
    skipList: [ZERO_HASH, ZERO_HASH, ZERO_HASH, ZERO_HASH],
  };
}
