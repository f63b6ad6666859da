// Ledger: one closed ledger of the network, as its header and counts.
import { toid } from '../../stellar/toid.js';
import { builder } from './builder.js';

export const LedgerRef = builder.prismaObject('Ledger', {
  description: 'A closed ledger.',
  fields: (t) => ({
    pagingToken: t.field({
      type: 'Int64',
      description: 'the cursor of this ledger in lists (its TOID)',
      resolve: (ledger) => toid(ledger.sequence, 0, 0),
    }),
    hash: t.exposeString('hash', { description: 'hex SHA-256 of the ledger header' }),
    prevHash: t.exposeString('prevHash', { nullable: true, description: 'the previous ledger’s hash' }),
    sequence: t.exposeInt('sequence'),
    successfulTransactionCount: t.exposeInt('successfulTransactionCount'),
    failedTransactionCount: t.exposeInt('failedTransactionCount'),
    operationCount: t.exposeInt('operationCount', { description: 'operations in successful transactions' }),
    txSetOperationCount: t.exposeInt('txSetOperationCount', { description: 'operations in the whole transaction set' }),
    closedAt: t.expose('closedAt', { type: 'DateTime' }),
    totalCoins: t.expose('totalCoins', { type: 'Amount' }),
    feePool: t.expose('feePool', { type: 'Amount' }),
    baseFeeInStroops: t.exposeInt('baseFee'),
    baseReserveInStroops: t.exposeInt('baseReserve'),
    maxTxSetSize: t.exposeInt('maxTxSetSize'),
    protocolVersion: t.exposeInt('protocolVersion'),
    headerXdr: t.exposeString('headerXdr', { description: 'base64 XDR of the LedgerHeader' }),
  }),
});

builder.queryField('ledger', (t) =>
  t.prismaField({
    type: 'Ledger',
    nullable: true,
    description: 'The ledger with this sequence number, if the history has it.',
    args: { sequence: t.arg.int({ required: true }) },
    resolve: (query, _root, args, ctx) => ctx.prisma.ledger.findUnique({ ...query, where: { sequence: args.sequence } }),
  }),
);
