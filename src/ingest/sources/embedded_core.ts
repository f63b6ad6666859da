// The embedded core, in process: its stored ledgers, then live closes until it stops.
import type { Core } from '../../core/index.js';
import type { LedgerSource } from './ledger_source.js';

export function embeddedCoreSource(core: Core): LedgerSource {
  return { ledgers: (fromSequence) => core.ledgers(fromSequence) };
}
