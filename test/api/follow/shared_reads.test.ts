// Reads shared while in flight: callers asking the same thing at once get one answer from one
// read, a read that ended is not reused, and a caller that heard a ledger after a read began does
// not join it (the read may not see that ledger).
import { describe, expect, it } from 'vitest';
import { SharedReads } from '../../../src/api/follow/index.js';
import { inProcessLedgerEvents } from '../../../src/events/ledger_events.js';

function gated<T>(value: T) {
  let open = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  let loads = 0;
  return {
    load: async () => {
      loads++;
      await gate;
      return value;
    },
    open: () => open(),
    loads: () => loads,
  };
}

describe('SharedReads', () => {
  it('answers callers of the same key in flight with one read, and reads again once it ended', async () => {
    const reads = new SharedReads(inProcessLedgerEvents());
    const first = gated(['a']);
    const answers = [reads.read('k', first.load), reads.read('k', first.load), reads.read('other', gated(['b']).load)];
    expect(first.loads()).toBe(1);
    first.open();
    const [one, two] = await Promise.all(answers.slice(0, 2));
    expect(one).toBe(two);
    const again = gated(['c']);
    again.open();
    expect(await reads.read('k', again.load)).toEqual(['c']);
    reads.close();
  });

  it('does not let a caller that heard a ledger join a read begun before it', async () => {
    const events = inProcessLedgerEvents();
    const reads = new SharedReads(events);
    const before = gated(['before the ledger']);
    const early = reads.read('k', before.load);
    await events.publish(2);
    const after = gated(['after the ledger']);
    const late = reads.read('k', after.load);
    expect(after.loads()).toBe(1);
    before.open();
    after.open();
    expect(await early).toEqual(['before the ledger']);
    expect(await late).toEqual(['after the ledger']);
    reads.close();
  });
});
