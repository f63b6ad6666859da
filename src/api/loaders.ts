// Per-request DataLoaders for lookups that are not Prisma relations (an account by id from a
// history row: merged accounts have history but no row). Made in createContext, one set per
// request, so nothing is cached between requests.
import DataLoader from 'dataloader';
import type { Account, PrismaClient } from '../generated/prisma/client.js';

export interface Loaders {
  account: DataLoader<string, Account | null>;
  /** a ledger's close time by sequence, while its ledger is in the history */
  ledgerClosedAt: DataLoader<number, Date | null>;
}

export function createLoaders(prisma: PrismaClient): Loaders {
  return {
    account: new DataLoader(async (ids: readonly string[]) => {
      const rows = await prisma.account.findMany({ where: { id: { in: [...ids] } } });
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    ledgerClosedAt: new DataLoader(async (sequences: readonly number[]) => {
      const rows = await prisma.ledger.findMany({
        where: { sequence: { in: [...sequences] } },
        select: { sequence: true, closedAt: true },
      });
      const bySequence = new Map(rows.map((row) => [row.sequence, row.closedAt]));
      return sequences.map((sequence) => bySequence.get(sequence) ?? null);
    }),
  };
}
