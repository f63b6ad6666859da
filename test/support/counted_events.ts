// In-process ledger events that count their open subscriptions, to see that a follow unsubscribes.
import { inProcessLedgerEvents, type LedgerEvents } from '../../src/events/ledger_events.js';

export function countedEvents(): LedgerEvents & { listeners(): number } {
  const events = inProcessLedgerEvents();
  let open = 0;
  return {
    ...events,
    subscribe(listener) {
      open++;
      const unsubscribe = events.subscribe(listener);
      return () => {
        open--;
        unsubscribe();
      };
    },
    listeners: () => open,
  };
}
