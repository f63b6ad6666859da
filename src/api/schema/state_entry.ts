// What every state entry (account, offer, claimable balance, pool) shows alike: when it last changed.

const closeTime = { lastModified: { select: { closedAt: true } } } as const;

/**
 * The type-level `include` of a state entry whose every row carries its last modified ledger's
 * close time (offers, claimable balances, pools): the ledger joins the list's own statement, and
 * `lastModifiedTime` reads it from the row as a plain field. A field's own `select` would do the
 * same, but Pothos then looks up per record whether that row was loaded with it: on a page of 200
 * that lookup cost ~5% of a REST list request.
 */
export const lastModifiedInclude = closeTime;

/** a row of a type including `lastModifiedInclude` */
export type WithLastModified<Row> = Row & { lastModified: { closedAt: Date } | null };

/**
 * `lastModifiedTime`: the close time of the entry's last_modified_ledger. Each such model relates
 * that ledger (`lastModified`), so the time joins the list's own statement and a page resolves it
 * without a promise per record. `included`: the type includes it (`lastModifiedInclude`); otherwise
 * the field selects it (an account, whose rows also come from loaders without Pothos' query).
 */
export function lastModifiedTimeField(included = false) {
  return {
    type: 'DateTime' as const,
    nullable: true as const,
    description: 'when the ledger of the last change closed (null once that ledger left the history)',
    ...(included ? {} : { select: closeTime }),
    resolve: (entry: { lastModified?: { closedAt: Date } | null }) => {
      // a row read without its type's query would show no time rather than its own: refuse it
      if (entry.lastModified === undefined) throw new Error('a state entry was loaded without its close time');
      return entry.lastModified?.closedAt ?? null;
    },
  };
}
