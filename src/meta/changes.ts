// Ledger entry changes as (before, after) pairs, as stellar-go's ingest.Change: a `state` entry
// followed by its `updated`/`removed`, or a lone `created`/`restored`.
import type { xdr } from '@stellar/stellar-base';

export interface EntryChange {
  type: string;
  pre: xdr.LedgerEntry | null;
  post: xdr.LedgerEntry | null;
}

export function changePairs(changes: xdr.LedgerEntryChange[]): EntryChange[] {
  const out: EntryChange[] = [];
  let state: xdr.LedgerEntry | null = null;
  for (const change of changes) {
    switch (change.switch().name) {
      case 'ledgerEntryState':
        state = change.state();
        break;
      case 'ledgerEntryCreated': {
        const post = change.created();
        out.push({ type: post.data().switch().name, pre: null, post });
        break;
      }
      case 'ledgerEntryRestored': {
        const post = change.restored();
        out.push({ type: post.data().switch().name, pre: null, post });
        break;
      }
      case 'ledgerEntryUpdated': {
        const post = change.updated();
        out.push({ type: post.data().switch().name, pre: state, post });
        state = null;
        break;
      }
      case 'ledgerEntryRemoved': {
        const pre = state;
        if (pre) out.push({ type: pre.data().switch().name, pre, post: null });
        state = null;
        break;
      }
      default:
        break;
    }
  }
  return out;
}
