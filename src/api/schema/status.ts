// The service's own state: what its history holds, what core it follows, what network it is on.
// REST renders it as Horizon's root document (GET /).
import { SUPPORTED_PROTOCOL_VERSION, ZENITH_VERSION } from '../../version.js';
import type { ApiContext } from '../context.js';
import { builder } from './builder.js';

interface Status {
  historyLatestLedger: number;
  historyLatestLedgerClosedAt: Date | null;
  historyElderLedger: number;
  ingestLatestLedger: number;
  currentProtocolVersion: number;
  coreVersion: string;
  coreLatestLedger: number;
  coreSupportedProtocolVersion: number;
}

async function loadStatus(ctx: ApiContext): Promise<Status> {
  const [range, cursor, core] = await Promise.all([
    ctx.prisma.ledger.aggregate({ _max: { sequence: true }, _min: { sequence: true } }),
    ctx.prisma.ingestCursor.findUnique({ where: { id: 1 } }),
    ctx.services.coreInfo(),
  ]);
  const latestSequence = range._max.sequence;
  const latest =
    latestSequence === null
      ? null
      : await ctx.prisma.ledger.findUnique({
          where: { sequence: latestSequence },
          select: { closedAt: true, protocolVersion: true },
        });
  return {
    historyLatestLedger: latestSequence ?? 0,
    historyLatestLedgerClosedAt: latest?.closedAt ?? null,
    historyElderLedger: range._min.sequence ?? 0,
    ingestLatestLedger: cursor?.ledgerSequence ?? 0,
    currentProtocolVersion: latest?.protocolVersion ?? 0,
    coreVersion: core?.version ?? '',
    coreLatestLedger: core?.latestLedger ?? 0,
    coreSupportedProtocolVersion: core?.protocolVersion ?? 0,
  };
}

const StatusRef = builder.objectRef<Status>('Status').implement({
  description: 'What this service holds and follows (the REST root document).',
  fields: (t) => ({
    horizonVersion: t.string({
      description: 'the version of this service',
      resolve: () => `zenith-${ZENITH_VERSION}`,
    }),
    coreVersion: t.exposeString('coreVersion', { description: 'the connected core, empty when none answers' }),
    ingestLatestLedger: t.exposeInt('ingestLatestLedger', { description: 'the last ledger ingested' }),
    historyLatestLedger: t.exposeInt('historyLatestLedger', { description: 'the newest ledger in the history' }),
    historyLatestLedgerClosedAt: t.expose('historyLatestLedgerClosedAt', { type: 'DateTime', nullable: true }),
    historyElderLedger: t.exposeInt('historyElderLedger', { description: 'the oldest ledger in the history' }),
    coreLatestLedger: t.exposeInt('coreLatestLedger', { description: "the core's last closed ledger" }),
    networkPassphrase: t.string({ resolve: (_status, _args, ctx) => ctx.services.config.networkPassphrase }),
    currentProtocolVersion: t.exposeInt('currentProtocolVersion', {
      description: 'the protocol version of the newest ledger in the history',
    }),
    supportedProtocolVersion: t.int({
      description: 'the newest protocol version this service understands',
      resolve: () => SUPPORTED_PROTOCOL_VERSION,
    }),
    coreSupportedProtocolVersion: t.exposeInt('coreSupportedProtocolVersion'),
  }),
});

builder.queryField('status', (t) =>
  t.field({
    type: StatusRef,
    description: 'The state of this service and of the network it follows.',
    resolve: (_root, _args, ctx) => loadStatus(ctx),
  }),
);
