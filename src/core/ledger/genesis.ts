// The core's genesis: ledger 1's header, and the root account of the protocol's genesis state
// (src/stellar/genesis.ts) as the core's own entry.
import { createHash } from 'node:crypto';
import { GENESIS_LEDGER_SEQ, TOTAL_COINS, genesisLedgerEntries } from '../../stellar/index.js';
import { entryFromXdr } from './entries.js';
import type { AccountRec } from './entries.js';
import { ZERO_HASH } from './header.js';
import type { LedgerHeaderRec } from './header.js';

/** The protocol whose classic semantics this core implements (see docs/core.md). */
export const PROTOCOL_VERSION = 22;

export interface GenesisParams {
  networkPassphrase: string;
  baseFee: number;
  baseReserve: number;
  maxTxSetSize: number;
}

export function genesisRootAccount(networkPassphrase: string): AccountRec {
  const [root] = genesisLedgerEntries(networkPassphrase);
  return entryFromXdr(root!) as AccountRec;
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
