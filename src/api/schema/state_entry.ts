// What every state entry (account, offer, ...) shows alike: when it last changed.
import type { ApiContext } from '../context.js';

/** `lastModifiedTime`: the close time of the entry's last_modified_ledger, batched by the request's loader. */
export function lastModifiedTimeField() {
  return {
    type: 'DateTime' as const,
    nullable: true as const,
    description: 'when the ledger of the last change closed (null once that ledger left the history)',
    resolve: (entry: { lastModifiedLedger: number }, _args: unknown, ctx: ApiContext) =>
      ctx.loaders.ledgerClosedAt.load(entry.lastModifiedLedger),
  };
}

/**
 * `lastModifiedTime` of an entry whose model relates its last_modified_ledger to the ledger
 * (`lastModified`): the close time joined in the list's own statement, so a page resolves it
 * without a promise per record.
 */
export function joinedLastModifiedTimeField() {
  return {
    type: 'DateTime' as const,
    nullable: true as const,
    description: 'when the ledger of the last change closed (null once that ledger left the history)',
    select: { lastModified: { select: { closedAt: true } } },
    resolve: (entry: { lastModified: { closedAt: Date } | null }) => entry.lastModified?.closedAt ?? null,
  };
}
