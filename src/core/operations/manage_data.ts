// manage_data: sets, updates or deletes a named data entry (a subentry of the source).
import { dataKey } from '../ledger/entries.js';
import type { DataRec } from '../ledger/entries.js';
import { opInner } from '../ledger/results.js';
import type { OperationDef } from './context.js';
import { asBuffer } from '../../stellar/bytes.js';
import { isStringValid, loadAccount, opBody } from './helpers.js';
import { createEntryWithPossibleSponsorship, removeEntryWithPossibleSponsorship, sponsorshipFailure } from './sponsorship.js';

const T = 'manageData';

export const manageData: OperationDef = {
  threshold: () => 'medium',
  supported: true,
  checkValid(op) {
    const name = asBuffer(opBody(op, T).manageDataOp.dataName.bytes);
    if (name.length < 1 || !isStringValid(name)) return opInner(T, 'manageDataInvalidName');
    return null;
  },
  apply(ctx) {
    const body = opBody(ctx.op, T).manageDataOp;
    const name = asBuffer(body.dataName.bytes).toString('latin1');
    const value = body.dataValue;
    const key = dataKey(ctx.sourceId, name);
    const existing = ctx.ltx.load<DataRec>(key);
    if (value !== null) {
      const b64 = asBuffer(value.value).toString('base64');
      if (existing) {
        existing.value = b64;
      } else {
        const source = loadAccount(ctx.ltx, ctx.sourceId)!;
        const entry: DataRec = { type: 'data', accountId: ctx.sourceId, name, value: b64, lastModified: 0 };
        const r = createEntryWithPossibleSponsorship(ctx.ltx, ctx.header, entry, source);
        if (r !== 'ok') return sponsorshipFailure(r, opInner(T, 'manageDataLowReserve'));
        ctx.ltx.create(entry);
      }
    } else {
      if (!existing) return { success: false, result: opInner(T, 'manageDataNameNotFound') };
      const source = loadAccount(ctx.ltx, ctx.sourceId)!;
      removeEntryWithPossibleSponsorship(ctx.ltx, existing, source);
      ctx.ltx.erase(key);
    }
    return { success: true, result: opInner(T, 'manageDataSuccess') };
  },
};
