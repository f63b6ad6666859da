// The embedded core, in process: its stored ledgers, then live closes until it stops. Only its
// `ledgers()` is read, so the ingester does not depend on the core.
import type { LedgerSource } from './ledger_source.js';

export function embeddedCoreSource(core: Pick<LedgerSource, 'ledgers'>): LedgerSource {
  return { ledgers: (fromSequence) => core.ledgers(fromSequence) };
}
