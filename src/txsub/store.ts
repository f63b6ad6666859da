// What submission reads from the history database: results of ingested transactions and the
// sequence numbers of accounts as of the last ingested ledger.
import type { PrismaClient, Transaction } from '../generated/prisma/client.js';

export interface SubmissionStore {
  /** ingested transactions among these hashes (outer or fee-bump inner hash) */
  findTransactions(hashes: readonly string[]): Promise<Transaction[]>;
  /** current sequence number of each account that exists */
  sequences(accounts: readonly string[]): Promise<Map<string, bigint>>;
}

export function prismaSubmissionStore(prisma: PrismaClient): SubmissionStore {
  return {
    findTransactions: (hashes) =>
      prisma.transaction.findMany({
        where: { OR: [{ hash: { in: [...hashes] } }, { innerTransactionHash: { in: [...hashes] } }] },
      }),
    async sequences(accounts) {
      const rows = await prisma.account.findMany({
        where: { id: { in: [...accounts] } },
        select: { id: true, sequence: true },
      });
      return new Map(rows.map((row) => [row.id, row.sequence]));
    },
  };
}
