// Per-request DataLoaders for lookups that are not Prisma relations (an account by id from a
// history row: merged accounts have history but no row). Made in createContext, one set per
// request, so nothing is cached between requests.
import DataLoader from 'dataloader';
import type { PrismaClient } from '../generated/prisma/client.js';
import { accountInclude, type LoadedAccount } from './schema/state_entry.js';

export interface Loaders {
  account: DataLoader<string, LoadedAccount | null>;
}

export function createLoaders(prisma: PrismaClient): Loaders {
  return {
    account: new DataLoader(async (ids: readonly string[]) => {
      const rows = await prisma.account.findMany({ where: { id: { in: [...ids] } }, include: accountInclude });
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
  };
}
