// What every state entry (account, offer, claimable balance, pool) shows alike: when it last changed.

/**
 * `lastModifiedTime`: the close time of the entry's last_modified_ledger. Each such model relates
 * that ledger (`lastModified`), so the time joins the list's own statement and a page resolves it
 * without a promise per record.
 */
export function lastModifiedTimeField() {
  return {
    type: 'DateTime' as const,
    nullable: true as const,
    description: 'when the ledger of the last change closed (null once that ledger left the history)',
    select: { lastModified: { select: { closedAt: true } } },
    resolve: (entry: { lastModified: { closedAt: Date } | null }) => entry.lastModified?.closedAt ?? null,
  };
}
