// The genesis state as XDR: LedgerCloseMeta only carries changes, so an ingester starting at
// ledger 1 needs the root account from here (real Horizon reads it from the history archive).
import type { xdr } from '@stellar/stellar-base';
import { entryToXdr } from './entries.js';
import { genesisRootAccount } from './genesis.js';

export function genesisLedgerEntries(networkPassphrase: string): xdr.LedgerEntry[] {
  return [entryToXdr(genesisRootAccount(networkPassphrase))];
}
