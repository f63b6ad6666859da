// REST throughput against a plain baseline in the same run: GET /accounts/{id},
// GET /accounts/{id}/payments?limit=200, and the state lists (200 records each: /claimable_balances,
// /liquidity_pools, /offers?seller, /assets, /accounts?signer) served by Zenith (route table → precompiled GraphQL
// document run by its plan → Prisma → snake_case + _links), and by a bare node:http handler that does the same
// database reads and writes the same JSON by hand (the bench checks the two answers are equal). Prints requests/s of both and the ratio (target
// ≥ 0.85), and the SQL statements one nested GraphQL query runs. The REST routes also run a third
// time with graphql-js executing the documents instead of the planned executor (the same route
// handler, in a bare node:http server): what the plan is worth.
// Run: npx tsx bench/api.ts [seconds=3] [concurrency=16] [postgres]  (BENCH_ONLY=/assets: only the routes whose path contains it;
// BENCH_RUNS=3: runs per route; BENCH_SQL=1: print each route's statements). Each route also prints the CPU
// this process spends per request of each server, sent one at a time, the two taking turns (BENCH_CPU_REQUESTS=100 per run),
// and their quotient: the figure the machine's other load moves least.
// PGlite in memory by default; with "postgres", a fresh database on TEST_DATABASE_URL's server
// (default postgres://postgres@127.0.0.1:5432), dropped at the end.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execute, parse } from 'graphql';
import { createContext } from '../src/api/context.js';
import { schema } from '../src/api/schema/index.js';
import { createApiServer } from '../src/api/server.js';
import { compileDocument, interpretDocument, type CompileDocument } from '../src/api/rest/executor.js';
import { createRestHandler } from '../src/api/rest/router.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { createLogger } from '../src/logger.js';
import { formatAmount } from '../src/stellar/amount.js';
import { operationTypeName } from '../src/stellar/operation_types.js';
import { createServerDatabase, dropServerDatabase } from '../test/support/database.js';
import { ALICE, BOB, ISSUER, seedLedger, seedScenario, type SeedOperation } from '../test/support/seed.js';
import { balanceId, seedClaimableBalance, seedPool } from '../test/support/seed_balances_pools.js';
import { Asset, Keypair } from '@stellar/stellar-sdk';
import { formatRatio } from '../src/stellar/price.js';
import { inProcessLedgerEvents } from '../src/events/ledger_events.js';
import { LiveOrderBook } from '../src/api/live_order_book.js';
import { MetricsRegistry } from '../src/metrics/registry.js';

const SECONDS = Number(process.argv[2] ?? 3);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PAYMENTS = 250;
// requests per CPU measure (BENCH_CPU_REQUESTS)
const CPU_REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 100);

let statements = 0;
// BENCH_SQL=1: print the statements of the one request per route counted below
let showSql = false;
const serverUrl = process.argv[4] === 'postgres' ? await createServerDatabase() : null;
const db: Database = await openDatabase(serverUrl ? { kind: 'postgres', url: serverUrl } : { kind: 'pglite', inMemory: true }, {
  onQuery: (sql) => {
    statements++;
    if (showSql) console.log(sql);
  },
});
await migrate(db);
await seedScenario(db);
const payment = (n: number): SeedOperation => ({
  type: 1,
  source: ALICE,
  details: { from: ALICE, to: BOB, amount: `${n}.0000000`, asset_type: 'native' },
  participants: [BOB],
});
for (let ledger = 4; ledger < 4 + PAYMENTS / 50; ledger++) {
  await seedLedger(
    db,
    ledger,
    Array.from({ length: 50 }, (_, i) => ({ source: ALICE, operations: [payment(i + 1)] })),
  );
}

// 200 claimable balances and 200 pools, last modified in a ledger the history holds
const STATE_ROWS = 200;
for (let i = 1; i <= STATE_ROWS; i++) {
  await seedClaimableBalance(db, { id: balanceId(i >> 8, i & 0xff), account: BOB, ledger: 3, ...(i % 2 ? { asset: `USD:${ALICE}` } : {}) });
  const pool = await seedPool(db, Asset.native(), BigInt(i), new Asset(`P${i}`, ALICE), BigInt(2 * i));
  await db.prisma.liquidityPool.update({ where: { id: pool }, data: { lastModifiedLedger: 3 } });
}

// 200 accounts with Bob as a signer, each holding its own asset (200 asset stats); 200 offers of Alice
for (let i = 1; i <= STATE_ROWS; i++) {
  const id = Keypair.fromRawEd25519Seed(Buffer.alloc(32, i)).publicKey();
  await db.prisma.account.create({
    data: {
      id,
      balance: 100n,
      sequence: 1n,
      subentryCount: 2,
      flags: 0,
      masterWeight: 1,
      thresholdLow: 0,
      thresholdMedium: 0,
      thresholdHigh: 0,
      lastModifiedLedger: 3,
    },
  });
  await db.prisma.signer.create({ data: { accountId: id, signer: BOB, weight: 1 } });
  await db.prisma.trustLine.create({
    data: {
      accountId: id,
      assetType: 'credit_alphanum4',
      assetCode: `A${i}`,
      assetIssuer: ISSUER,
      liquidityPoolId: '',
      balance: 5n,
      limit: 10n,
      flags: 1,
      lastModifiedLedger: 3,
    },
  });
  await db.prisma.offer.create({
    data: {
      id: BigInt(700 + i),
      sellerId: ALICE,
      sellingAsset: `A${i}:${ISSUER}`,
      buyingAsset: 'native',
      amount: 10n,
      priceN: 1,
      priceD: 2,
      price: 0.5,
      flags: 0,
      lastModifiedLedger: 3,
    },
  });
}

const services = {
  db,
  config: { networkPassphrase: 'bench' },
  coreInfo: async () => null,
  events: inProcessLedgerEvents(),
  txsub: null,
  metrics: new MetricsRegistry(),
  orderBook: new LiveOrderBook(db, inProcessLedgerEvents()),
};
const logger = createLogger('silent', { pretty: false });
const zenith = createApiServer({ services, logger });
const bare = (compile: CompileDocument) => {
  const handle = createRestHandler(schema, services, logger, { compile });
  return createServer(async (req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (!(await handle(req, res, new URL(req.url ?? '/', 'http://localhost')))) res.writeHead(404).end();
  });
};
const zenithInterpreted = bare(interpretDocument);
// the plan writing GraphQL's shape, rendered to REST's after (render.ts): what the one pass is worth
const zenithTwoPass = bare(compileDocument);

const AUTH_REQUIRED = 1;
const AUTH_REVOCABLE = 2;
const AUTH_IMMUTABLE = 4;
const AUTH_CLAWBACK_ENABLED = 8;
const SIGNER_TYPES: Record<string, string> = { G: 'ed25519_public_key', T: 'preauth_tx', X: 'sha256_hash', P: 'ed25519_signed_payload' };
const templated = (href: string) => ({ href: `${href}{?cursor,limit,order}`, templated: true });
const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as T;
const sortedKeys = (value: Record<string, unknown>) =>
  Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, value[key]]),
  );

type AccountRow = NonNullable<Awaited<ReturnType<typeof accountWithEntries>>>;
const accountWithEntries = (id: string) =>
  db.prisma.account.findUnique({ where: { id }, include: { trustLines: true, signers: true, data: true } });

/** Horizon's account record by hand. */
function accountRecord(origin: string, account: AccountRow, closedAt: Date | undefined) {
  const self = `${origin}/accounts/${account.id}`;
  return {
    _links: {
      self: { href: self },
      transactions: templated(`${self}/transactions`),
      operations: templated(`${self}/operations`),
      payments: templated(`${self}/payments`),
      effects: templated(`${self}/effects`),
      offers: templated(`${self}/offers`),
      trades: templated(`${self}/trades`),
      data: { href: `${self}/data/{key}`, templated: true },
    },
    id: account.id,
    account_id: account.id,
    balances: [
      ...account.trustLines
        .filter((line) => (line.flags & 1) !== 0)
        .map((line) => ({
          asset_code: line.assetCode,
          asset_issuer: line.assetIssuer,
          asset_type: line.assetType,
          balance: formatAmount(line.balance),
          buying_liabilities: formatAmount(line.buyingLiabilities),
          is_authorized: true,
          is_authorized_to_maintain_liabilities: true,
          is_clawback_enabled: (line.flags & 4) !== 0,
          last_modified_ledger: line.lastModifiedLedger,
          limit: formatAmount(line.limit),
          selling_liabilities: formatAmount(line.sellingLiabilities),
        })),
      {
        asset_type: 'native',
        balance: formatAmount(account.balance),
        buying_liabilities: formatAmount(account.buyingLiabilities),
        selling_liabilities: formatAmount(account.sellingLiabilities),
      },
    ],
    data: Object.fromEntries(account.data.map((entry) => [entry.name, entry.value])),
    flags: {
      auth_clawback_enabled: (account.flags & AUTH_CLAWBACK_ENABLED) !== 0,
      auth_immutable: (account.flags & AUTH_IMMUTABLE) !== 0,
      auth_required: (account.flags & AUTH_REQUIRED) !== 0,
      auth_revocable: (account.flags & AUTH_REVOCABLE) !== 0,
    },
    home_domain: account.homeDomain,
    ...defined({ inflation_destination: account.inflationDestination }),
    last_modified_ledger: account.lastModifiedLedger,
    ...defined({ last_modified_time: time(closedAt) }),
    num_sponsored: account.numSponsored,
    num_sponsoring: account.numSponsoring,
    paging_token: account.id,
    sequence: account.sequence.toString(),
    ...defined({ sequence_ledger: account.sequenceLedger, sequence_time: account.sequenceTime?.toString() }),
    signers: [
      ...account.signers.map((s) =>
        defined({
          key: s.signer,
          public_key: s.signer,
          sponsor: s.sponsor,
          type: SIGNER_TYPES[s.signer[0] ?? ''] ?? 'unknown',
          weight: s.weight,
        }),
      ),
      ...(account.masterWeight > 0
        ? [{ key: account.id, public_key: account.id, type: 'ed25519_public_key', weight: account.masterWeight }]
        : []),
    ],
    subentry_count: account.subentryCount,
    thresholds: { high_threshold: account.thresholdHigh, low_threshold: account.thresholdLow, med_threshold: account.thresholdMedium },
  };
}

/**
 * The same reads as Zenith's routes and the same response, byte for byte (checked before measuring),
 * written by hand: what a hand-written endpoint would be.
 */
const baseline = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const origin = `http://${req.headers.host ?? 'localhost'}`;
  const [, , id = '', list] = url.pathname.split('/');
  let body: unknown;
  if (['/claimable_balances', '/liquidity_pools', '/offers', '/assets', '/accounts'].includes(url.pathname)) {
    body = await statePage(origin, url);
  } else if (!list) {
    const account = await accountWithEntries(id);
    if (!account) {
      res.writeHead(404).end();
      return;
    }
    const closed = await db.prisma.ledger.findUnique({ where: { sequence: account.lastModifiedLedger }, select: { closedAt: true } });
    body = accountRecord(origin, account, closed?.closedAt);
  } else {
    const limit = Number(url.searchParams.get('limit') ?? 10);
    const participants = await db.prisma.operationParticipant.findMany({
      where: { account: id, operation: { is: { isPayment: true, transactionSuccessful: true } } },
      orderBy: { operationId: 'asc' },
      take: limit,
      include: { operation: true },
    });
    const rows = participants.map((row) => row.operation);
    const page = `${origin}${url.pathname}`;
    const first = rows[0]?.id.toString() ?? '';
    const last = rows[rows.length - 1]?.id.toString() ?? '';
    body = {
      _links: {
        self: { href: `${page}?cursor=&limit=${limit}&order=asc` },
        next: { href: `${page}?cursor=${last}&limit=${limit}&order=asc` },
        prev: { href: `${page}?cursor=${first}&limit=${limit}&order=desc` },
      },
      _embedded: {
        records: rows.map((op) => {
          const opId = op.id.toString();
          return {
            _links: {
              self: { href: `${origin}/operations/${opId}` },
              transaction: { href: `${origin}/transactions/${op.transactionHash}` },
              effects: templated(`${origin}/operations/${opId}/effects`),
              succeeds: { href: `${origin}/operations?order=desc&cursor=${opId}` },
              precedes: { href: `${origin}/operations?order=asc&cursor=${opId}` },
            },
            id: opId,
            created_at: op.closedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
            paging_token: opId,
            source_account: op.sourceAccount,
            transaction_hash: op.transactionHash,
            transaction_successful: op.transactionSuccessful,
            type: operationTypeName(op.type),
            type_i: op.type,
            ...sortedKeys(op.details as Record<string, unknown>),
          };
        }),
      },
    };
  }
  const text = JSON.stringify(body, null, 2);
  res.writeHead(200, { 'Content-Type': 'application/hal+json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
});

const time = (date: Date | undefined) => date?.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A page of claimable balances or pools by hand (Horizon's order and paging tokens, the ledgers' close times). */
async function statePage(origin: string, url: URL): Promise<unknown> {
  const limit = Number(url.searchParams.get('limit') ?? 10);
  const closeTimes = async (sequences: number[]) =>
    new Map(
      (
        await db.prisma.ledger.findMany({
          where: { sequence: { in: [...new Set(sequences)] } },
          select: { sequence: true, closedAt: true },
        })
      ).map((l) => [l.sequence, l.closedAt]),
    );
  const page = `${origin}${url.pathname}`;
  // the page's own filter, kept in its links after order (as Zenith keeps query parameters)
  const filter = [...url.searchParams].filter(([name]) => !['cursor', 'limit', 'order'].includes(name));
  const rest = filter.map(([name, value]) => `&${name}=${value}`).join('');
  const paged = (records: { paging_token: string }[]) => ({
    _links: {
      self: { href: `${page}?cursor=&limit=${limit}&order=asc${rest}` },
      next: { href: `${page}?cursor=${records.at(-1)?.paging_token ?? ''}&limit=${limit}&order=asc${rest}` },
      prev: { href: `${page}?cursor=${records[0]?.paging_token ?? ''}&limit=${limit}&order=desc${rest}` },
    },
    _embedded: { records },
  });
  const assetObject = (text: string) => {
    if (text === 'native') return { asset_type: 'native' };
    const [code = '', issuer = ''] = text.split(':');
    return { asset_code: code, asset_issuer: issuer, asset_type: code.length <= 4 ? 'credit_alphanum4' : 'credit_alphanum12' };
  };
  if (url.pathname === '/accounts') {
    const signer = url.searchParams.get('signer') ?? '';
    const signed = await db.prisma.signer.findMany({
      where: { signer },
      orderBy: { accountId: 'asc' },
      take: limit,
      select: { accountId: true },
    });
    // the signer's own account while its master key signs (Horizon's accounts_signers holds it)
    const own = await db.prisma.account.findFirst({ where: { id: signer, masterWeight: { gt: 0 } }, select: { id: true } });
    const ids = [...new Set([...signed.map((row) => row.accountId), ...(own ? [own.id] : [])])].sort().slice(0, limit);
    const accounts = await db.prisma.account.findMany({
      where: { id: { in: ids } },
      include: { trustLines: true, signers: true, data: true },
    });
    const closed = await closeTimes(accounts.map((row) => row.lastModifiedLedger));
    const byId = new Map(accounts.map((row) => [row.id, row]));
    return paged(ids.flatMap((id) => byId.get(id) ?? []).map((row) => accountRecord(origin, row, closed.get(row.lastModifiedLedger))));
  }
  if (url.pathname === '/offers') {
    const seller = url.searchParams.get('seller') ?? '';
    const rows = await db.prisma.offer.findMany({ where: { sellerId: seller }, orderBy: { id: 'asc' }, take: limit });
    const closed = await closeTimes(rows.map((row) => row.lastModifiedLedger));
    return paged(
      rows.map((row) =>
        defined({
          _links: { self: { href: `${origin}/offers/${row.id}` }, offer_maker: { href: `${origin}/accounts/${row.sellerId}` } },
          id: row.id.toString(),
          amount: formatAmount(row.amount),
          buying: assetObject(row.buyingAsset),
          last_modified_ledger: row.lastModifiedLedger,
          last_modified_time: time(closed.get(row.lastModifiedLedger)),
          paging_token: row.id.toString(),
          price: formatRatio(BigInt(row.priceN), BigInt(row.priceD)),
          price_r: { d: row.priceD, n: row.priceN },
          seller: row.sellerId,
          selling: assetObject(row.sellingAsset),
          sponsor: row.sponsor,
        }),
      ),
    );
  }
  if (url.pathname === '/assets') {
    const rows = await db.prisma.assetStat.findMany({
      orderBy: [{ assetCode: 'asc' }, { assetIssuer: 'asc' }],
      take: limit,
      include: { issuer: { select: { flags: true, homeDomain: true } } },
    });
    const sum = (value: { toFixed: (digits: number) => string }) => formatAmount(BigInt(value.toFixed(0)));
    return paged(
      rows.map((row) => {
        const flags = row.issuer?.flags ?? 0;
        const domain = row.issuer?.homeDomain.trim() ?? '';
        return {
          _links: { toml: { href: domain === '' ? '' : `https://${domain}/.well-known/stellar.toml` } },
          accounts: {
            authorized: row.accountsAuthorized,
            authorized_to_maintain_liabilities: row.accountsAuthorizedToMaintainLiabilities,
            unauthorized: row.accountsUnauthorized,
          },
          asset_code: row.assetCode,
          asset_issuer: row.assetIssuer,
          asset_type: row.assetType,
          balances: {
            authorized: sum(row.balancesAuthorized),
            authorized_to_maintain_liabilities: sum(row.balancesAuthorizedToMaintainLiabilities),
            unauthorized: sum(row.balancesUnauthorized),
          },
          claimable_balances_amount: sum(row.claimableBalancesAmount),
          contracts_amount: '0.0000000',
          flags: {
            auth_clawback_enabled: (flags & AUTH_CLAWBACK_ENABLED) !== 0,
            auth_immutable: (flags & AUTH_IMMUTABLE) !== 0,
            auth_required: (flags & AUTH_REQUIRED) !== 0,
            auth_revocable: (flags & AUTH_REVOCABLE) !== 0,
          },
          liquidity_pools_amount: sum(row.liquidityPoolsAmount),
          num_claimable_balances: row.numClaimableBalances,
          num_contracts: 0,
          num_liquidity_pools: row.numLiquidityPools,
          paging_token: `${row.assetCode}_${row.assetIssuer}_${row.assetType}`,
        };
      }),
    );
  }
  if (url.pathname === '/claimable_balances') {
    const rows = await db.prisma.claimableBalance.findMany({ orderBy: [{ lastModifiedLedger: 'asc' }, { id: 'asc' }], take: limit });
    const closed = await closeTimes(rows.map((row) => row.lastModifiedLedger));
    return paged(
      rows.map((row) => {
        const self = `${origin}/claimable_balances/${row.id}`;
        return defined({
          _links: { self: { href: self }, transactions: templated(`${self}/transactions`), operations: templated(`${self}/operations`) },
          id: row.id,
          amount: formatAmount(row.amount),
          asset: row.asset,
          claimants: (row.claimants as { destination: string; predicate: unknown }[]).map(({ destination, predicate }) => ({
            destination,
            predicate,
          })),
          flags: { clawback_enabled: (row.flags & 1) !== 0 },
          last_modified_ledger: row.lastModifiedLedger,
          last_modified_time: time(closed.get(row.lastModifiedLedger)),
          paging_token: `${row.lastModifiedLedger}-${row.id}`,
          sponsor: row.sponsor,
        });
      }),
    );
  }
  const rows = await db.prisma.liquidityPool.findMany({ orderBy: { id: 'asc' }, take: limit });
  const closed = await closeTimes(rows.map((row) => row.lastModifiedLedger));
  return paged(
    rows.map((row) => {
      const self = `${origin}/liquidity_pools/${row.id}`;
      return defined({
        _links: { self: { href: self }, transactions: templated(`${self}/transactions`), operations: templated(`${self}/operations`) },
        id: row.id,
        fee_bp: row.fee,
        last_modified_ledger: row.lastModifiedLedger,
        last_modified_time: time(closed.get(row.lastModifiedLedger)),
        paging_token: row.id,
        reserves: [
          { amount: formatAmount(row.reserveA), asset: row.assetA },
          { amount: formatAmount(row.reserveB), asset: row.assetB },
        ],
        total_shares: formatAmount(row.shareCount),
        total_trustlines: row.trustlineCount.toString(),
        type: 'constant_product',
      });
    }),
  );
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function rate(url: string): Promise<number> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  await response.arrayBuffer();
  let count = 0;
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const r = await fetch(url);
        await r.arrayBuffer();
        count++;
      }
    }),
  );
  return count / SECONDS;
}

/**
 * CPU time (user + system, ms) this process spends per request of each URL, requests sent one at a
 * time, the URLs taking turns by batches of 10 so that both see the same moments: client, server
 * and Prisma's engine all run here, so the figure ignores most of the machine's other load (what a
 * throughput figure does not). PostgreSQL's own work is outside it, alike for both servers.
 */
async function cpuPerRequest(urls: readonly string[], requests = CPU_REQUESTS): Promise<number[]> {
  const BATCH = 10;
  const rounds = Math.ceil(requests / BATCH);
  const spent = urls.map(() => 0);
  for (const url of urls) await (await fetch(url)).arrayBuffer();
  for (let round = 0; round < rounds; round++) {
    for (const [index, url] of urls.entries()) {
      const start = process.cpuUsage();
      for (let i = 0; i < BATCH; i++) await (await fetch(url)).arrayBuffer();
      const used = process.cpuUsage(start);
      spent[index] = (spent[index] ?? 0) + used.user + used.system;
    }
  }
  return spent.map((micros) => micros / 1000 / (rounds * BATCH));
}

const zenithUrl = await listen(zenith);
const baselineUrl = await listen(baseline);
const interpretedUrl = await listen(zenithInterpreted);
const twoPassUrl = await listen(zenithTwoPass);
console.log(`${db.kind}, ${SECONDS}s per run, concurrency ${CONCURRENCY}, median of ${RUNS} runs (ratios: median of each run's ratio)`);
for (const path of [
  `/accounts/${ALICE}`,
  `/accounts/${ALICE}/payments?limit=200`,
  `/claimable_balances?limit=${STATE_ROWS}`,
  `/liquidity_pools?limit=${STATE_ROWS}`,
  `/offers?seller=${ALICE}&limit=${STATE_ROWS}`,
  `/assets?limit=${STATE_ROWS}`,
  `/accounts?signer=${BOB}&limit=${STATE_ROWS}`,
].filter((path) => path.includes(process.env.BENCH_ONLY ?? ''))) {
  // the baseline must answer what Zenith answers, or the ratio compares different work
  const [ours = '', theirs = ''] = await Promise.all(
    [zenithUrl, baselineUrl].map(async (base) => (await (await fetch(base + path)).text()).replaceAll(base, '')),
  );
  if (ours !== theirs) {
    const at = [...ours].findIndex((c, i) => c !== theirs[i]);
    throw new Error(
      `the baseline answers ${path} unlike Zenith: ${JSON.stringify(ours.slice(at - 60, at + 100))} vs ${JSON.stringify(theirs.slice(at - 60, at + 100))}`,
    );
  }
  // SQL statements of one request each: a difference here outweighs any rendering cost
  const counted = async (base: string) => {
    statements = 0;
    showSql = Boolean(process.env.BENCH_SQL);
    await (await fetch(base + path)).arrayBuffer();
    showSql = false;
    return statements;
  };
  const sql = { zenith: await counted(zenithUrl), baseline: await counted(baselineUrl) };
  // each run measures the three servers back to back; the ratios are of one run, and their median
  // is printed, so that load from elsewhere on the machine shifts both sides of a ratio alike
  const runs: { zenith: number; interpreted: number; baseline: number }[] = [];
  for (let run = 0; run < RUNS; run++) {
    runs.push({
      baseline: await rate(baselineUrl + path),
      zenith: await rate(zenithUrl + path),
      interpreted: await rate(interpretedUrl + path),
    });
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1] ?? 0;
  const rates = (side: 'zenith' | 'interpreted' | 'baseline') => median(runs.map((r) => r[side])).toFixed(0);
  const ratio = (side: 'zenith' | 'interpreted') => median(runs.map((r) => r[side] / r.baseline)).toFixed(2);
  // this process's CPU per request, the two servers alternating: what load elsewhere moves least
  const cpu: { zenith: number; baseline: number; twoPass: number }[] = [];
  for (let run = 0; run < RUNS; run++) {
    const [baselineCpu = 0, zenithCpu = 0, twoPassCpu = 0] = await cpuPerRequest([baselineUrl + path, zenithUrl + path, twoPassUrl + path]);
    cpu.push({ baseline: baselineCpu, zenith: zenithCpu, twoPass: twoPassCpu });
  }
  const cpuMs = (side: 'zenith' | 'baseline' | 'twoPass') => median(cpu.map((c) => c[side])).toFixed(2);
  const cpuRatio = (side: 'zenith' | 'twoPass') => median(cpu.map((c) => c[side] / c.baseline)).toFixed(2);
  console.log(
    `GET ${path.replace(ALICE, '{id}')}: zenith ${rates('zenith')} req/s, baseline ${rates('baseline')} req/s, ratio ${ratio('zenith')}` +
      ` (graphql-js instead of the planned executor: ${rates('interpreted')} req/s, ratio ${ratio('interpreted')}); SQL statements ${sql.zenith} vs ${sql.baseline}`,
  );
  console.log(
    `  CPU per request (client and server, this process): zenith ${cpuMs('zenith')} ms, baseline ${cpuMs('baseline')} ms,` +
      ` zenith ÷ baseline ${cpuRatio('zenith')} (the plan in GraphQL's shape, rendered after: ${cpuMs('twoPass')} ms, ÷ baseline ${cpuRatio('twoPass')})`,
  );
}

const nested = parse(`query($id: String!, $first: Int) { account(id: $id) { accountId payments(first: $first) { edges { node {
  pagingToken type ... on PaymentOperation { amount } transaction { hash ledger { sequence closedAt } } } } } } }`);
for (const first of [20, 200]) {
  statements = 0;
  const result = await execute({ schema, document: nested, contextValue: createContext(services), variableValues: { id: ALICE, first } });
  if (result.errors) throw result.errors[0];
  console.log(`SQL statements for account → ${first} payments → transaction → ledger: ${statements}`);
}

await new Promise((resolve) => zenith.close(resolve));
await new Promise((resolve) => baseline.close(resolve));
await new Promise((resolve) => zenithInterpreted.close(resolve));
await new Promise((resolve) => zenithTwoPass.close(resolve));
await db.close();
if (serverUrl) await dropServerDatabase(serverUrl);
