import DataLoader from 'dataloader';
import type { GraphQLResolveInfo } from 'graphql';
import {
  type AssetStat,
  type ClaimableBalance,
  type LiquidityPool,
  type Offer,
  Prisma,
  type Trade,
} from '../../generated/prisma/client.js';
import type { Order } from '../../market/index.js';
import { type AssetStatKey, type CreditAsset, formatAssetStatPagingToken, parseAssetStatPagingToken } from '../../stellar/asset.js';
import { formatBalancePagingToken, type BalancePagingToken } from '../../stellar/entry_ids.js';
import type { PairPagingToken } from '../../stellar/toid.js';
import type { ApiContext } from '../context.js';
import {
  balanceKey,
  balanceWhere,
  pairCursor,
  pairKey,
  poolKey,
  textKey,
  accountIdKey,
  toidKey,
  toidWhere,
  type KeyKind,
  type KeyRange,
  type KeysetSource,
} from './paging.js';
import { newestLedger, nodeInclude, nodeQuery } from './lists.js';
import type { LoadedAccount, WithLastModified } from './state_entry.js';

/** rows read with their type's query (nodeQuery): they carry what the type includes, its close time */
const withCloseTime = <Row>(rows: Promise<Row[]>) => rows as Promise<WithLastModified<Row>[]>;

export function offerList(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
  where: Prisma.OfferWhereInput,
): KeysetSource<WithLastModified<Offer>, bigint> {
  return {
    key: toidKey,
    fetch: (range, direction, take) =>
      withCloseTime(
        ctx.prisma.offer.findMany({
          ...nodeQuery(ctx, info),
          where: { AND: [where, { id: toidWhere(range) }] },
          orderBy: { id: direction },
          take,
        }),
      ),
    cursor: (offer) => offer.id.toString(),
    // Horizon's cursor=now on offers: after the newest ledger's TOID, as on the history's lists
    newestLedger: newestLedger(ctx),
  };
}

/** The filters of a claimable balance list, checked: an asset as stored, account ids. */
export interface BalanceFilter {
  asset?: string;
  sponsor?: string;
  claimant?: string;
}

/**
 * Claimable balances in Horizon's order (last modified ledger, id). A claimant's alone are driven by
 * its claimant rows (their own (destination, ledger, id) index), as Horizon's subquery is; with
 * another filter the claimant is a condition on the balances.
 */
export function claimableBalanceList(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
  filter: BalanceFilter,
): KeysetSource<WithLastModified<ClaimableBalance>, BalancePagingToken> {
  const cursor = (row: ClaimableBalance) => formatBalancePagingToken(row.lastModifiedLedger, row.id);
  const { asset, sponsor, claimant } = filter;
  if (claimant !== undefined && asset === undefined && sponsor === undefined) {
    return {
      key: balanceKey,
      fetch: async (range, direction, take) => {
        const bounds = balanceWhere(range, {
          ledger: 'lastModifiedLedger',
          id: 'balanceId',
        }) as Prisma.ClaimableBalanceClaimantWhereInput[];
        const rows = await ctx.prisma.claimableBalanceClaimant.findMany({
          where: { AND: [{ destination: claimant }, ...bounds] },
          orderBy: [{ lastModifiedLedger: direction }, { balanceId: direction }],
          take,
          include: { balance: nodeInclude(ctx, info) },
        });
        return rows.map((row) => row.balance as WithLastModified<ClaimableBalance>);
      },
      cursor,
    };
  }
  const where: Prisma.ClaimableBalanceWhereInput = {};
  if (asset !== undefined) where.asset = asset;
  if (sponsor !== undefined) where.sponsor = sponsor;
  if (claimant !== undefined) where.destinations = { some: { destination: claimant } };
  return {
    key: balanceKey,
    fetch: (range, direction, take) => {
      const bounds = balanceWhere(range, { ledger: 'lastModifiedLedger', id: 'id' }) as Prisma.ClaimableBalanceWhereInput[];
      return withCloseTime(
        ctx.prisma.claimableBalance.findMany({
          ...nodeQuery(ctx, info),
          where: { AND: [where, ...bounds] },
          orderBy: [{ lastModifiedLedger: direction }, { id: direction }],
          take,
        }),
      );
    },
    cursor,
  };
}

/** Liquidity pools by id (Horizon's order and paging token). */
export function liquidityPoolList(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
  where: Prisma.LiquidityPoolWhereInput,
): KeysetSource<WithLastModified<LiquidityPool>, string> {
  return {
    key: poolKey,
    fetch: (range, direction, take) => {
      const id: Prisma.StringFilter = {};
      if (range.gt !== undefined) id.gt = range.gt;
      if (range.lt !== undefined) id.lt = range.lt;
      return withCloseTime(
        ctx.prisma.liquidityPool.findMany({
          // a pool relates only its last modified ledger: its query includes nothing else
          ...(nodeQuery(ctx, info) as object),
          where: { AND: [where, { id }] },
          orderBy: { id: direction },
          take,
        }),
      );
    },
    cursor: (pool) => pool.id,
  };
}

/**
 * What an account list holds (Horizon's GetAccountsHandler, exactly one filter): the accounts
 * with a signer (the master key counts while its weight is not zero, as in Horizon's
 * accounts_signers), with a trust line to a credit asset or to a pool's shares, or whose entry or
 * sub-entries (data, signers, trust lines) a sponsor sponsors (AccountsForSponsor).
 */
export type AccountFilter =
  | { readonly signer: string }
  | { readonly asset: CreditAsset }
  | { readonly liquidityPool: string }
  | { readonly sponsor: string };

type AccountRange = KeyRange<string>;

const textWhere = (range: AccountRange): Prisma.StringFilter => ({
  ...(range.gt !== undefined ? { gt: range.gt } : {}),
  ...(range.lt !== undefined ? { lt: range.lt } : {}),
});

/** ids in key order, without repeats, at most `take` */
function firstIds(ids: string[], direction: Order, take: number): string[] {
  const sorted = [...new Set(ids)].sort();
  if (direction === 'desc') sorted.reverse();
  return sorted.slice(0, take);
}

/** The accounts of `ids` with the node selection, in the order of `ids`. */
async function accountsInOrder(ctx: ApiContext, info: GraphQLResolveInfo, ids: readonly string[]): Promise<LoadedAccount[]> {
  if (ids.length === 0) return [];
  // read with the type's query: the rows carry what the Account type includes
  const rows = (await ctx.prisma.account.findMany({ ...nodeQuery(ctx, info), where: { id: { in: [...ids] } } })) as LoadedAccount[];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The ids of the accounts each sponsor sponsors (the account entry, or any of its data entries,
 * signers and trust lines: Horizon's union), at most `take` per sponsor in key order: one statement
 * for any number of sponsors.
 */
async function sponsoredIds(
  ctx: ApiContext,
  sponsors: readonly string[],
  range: AccountRange,
  direction: Order,
  take: number,
): Promise<Map<string, string[]>> {
  const bounds = [
    ...(range.gt !== undefined ? [Prisma.sql`account_id > ${range.gt}`] : []),
    ...(range.lt !== undefined ? [Prisma.sql`account_id < ${range.lt}`] : []),
  ];
  const order = Prisma.raw(direction === 'asc' ? 'ASC' : 'DESC');
  const list = [...sponsors];
  const rows = await ctx.prisma.$queryRaw<{ sponsor: string; account_id: string }[]>`
    SELECT sponsor, account_id FROM (
      SELECT sponsor, account_id, row_number() OVER (PARTITION BY sponsor ORDER BY account_id ${order}) AS n
      FROM (
        SELECT sponsor, id AS account_id FROM accounts WHERE sponsor = ANY(${list})
        UNION SELECT sponsor, account_id FROM accounts_data WHERE sponsor = ANY(${list})
        UNION SELECT sponsor, account_id FROM accounts_signers WHERE sponsor = ANY(${list})
        UNION SELECT sponsor, account_id FROM trust_lines WHERE sponsor = ANY(${list})
      ) sponsored
      ${bounds.length > 0 ? Prisma.sql`WHERE ${Prisma.join(bounds, ' AND ')}` : Prisma.empty}
    ) ranked
    WHERE n <= ${take}
    ORDER BY sponsor, n`;
  const ids = new Map<string, string[]>(sponsors.map((sponsor) => [sponsor, []]));
  for (const row of rows) ids.get(row.sponsor)?.push(row.account_id);
  return ids;
}

/** The ids of the accounts a filter holds, within `range`, in key order. */
async function filteredIds(ctx: ApiContext, filter: AccountFilter, range: AccountRange, direction: Order, take: number): Promise<string[]> {
  const accountId = textWhere(range);
  const trustLineIds = async (where: Prisma.TrustLineWhereInput) =>
    (
      await ctx.prisma.trustLine.findMany({
        where: { ...where, accountId },
        orderBy: { accountId: direction },
        take,
        select: { accountId: true },
      })
    ).map((row) => row.accountId);
  if ('sponsor' in filter) return (await sponsoredIds(ctx, [filter.sponsor], range, direction, take)).get(filter.sponsor) ?? [];
  if ('asset' in filter) {
    const { type, code, issuer } = filter.asset;
    return trustLineIds({ assetType: type, assetCode: code, assetIssuer: issuer });
  }
  if ('liquidityPool' in filter) return trustLineIds({ liquidityPoolId: filter.liquidityPool });
  const { signer } = filter;
  const inRange = (range.gt === undefined || signer > range.gt) && (range.lt === undefined || signer < range.lt);
  const [signed, master] = await Promise.all([
    ctx.prisma.signer.findMany({ where: { signer, accountId }, orderBy: { accountId: direction }, take, select: { accountId: true } }),
    inRange ? ctx.prisma.account.findFirst({ where: { id: signer, masterWeight: { gt: 0 } }, select: { id: true } }) : null,
  ]);
  return firstIds([...signed.map((row) => row.accountId), ...(master ? [master.id] : [])], direction, take);
}

export function accountList(ctx: ApiContext, info: GraphQLResolveInfo, filter: AccountFilter): KeysetSource<LoadedAccount, string> {
  return {
    key: textKey,
    fetch: async (range, direction, take) => accountsInOrder(ctx, info, await filteredIds(ctx, filter, range, direction, take)),
    cursor: (account) => account.id,
  };
}

// biome-ignore lint/suspicious/noExplicitAny: loaders of every key and value type share the cache
type AnyLoader = DataLoader<any, any, any>;
const relationLoaders = new WeakMap<ApiContext['loaders'], WeakMap<object, Map<string, AnyLoader>>>();

/**
 * The same page of a relation for every parent of a list, read together: one DataLoader per
 * request, per field in the document (its AST node) and per page asked.
 */
function relationPage<K, V, C = K>(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
  page: { range: KeyRange<unknown>; direction: Order; take: number },
  batch: DataLoader.BatchLoadFn<K, V>,
  options?: DataLoader.Options<K, V, C>,
): DataLoader<K, V, C> {
  let byNode = relationLoaders.get(ctx.loaders);
  if (!byNode) relationLoaders.set(ctx.loaders, (byNode = new WeakMap()));
  const node = info.fieldNodes[0] ?? info;
  let byPage = byNode.get(node);
  if (!byPage) byNode.set(node, (byPage = new Map()));
  // a cursor's bound may hold bigints (a trade's operation id), which JSON.stringify refuses
  const key = JSON.stringify([page.range.gt ?? null, page.range.lt ?? null, page.direction, page.take], (_name, value: unknown) =>
    typeof value === 'bigint' ? value.toString() : value,
  );
  let loader = byPage.get(key) as DataLoader<K, V, C> | undefined;
  if (!loader) byPage.set(key, (loader = new DataLoader(batch, options)));
  return loader;
}

/**
 * The accounts a sponsor sponsors, as a relation: the sponsors of one list of parents are read
 * together (one statement for their ids, one for the accounts), whatever the number of parents.
 */
export function sponsoringList(ctx: ApiContext, info: GraphQLResolveInfo, sponsor: string): KeysetSource<LoadedAccount, string> {
  return {
    key: textKey,
    fetch: (range, direction, take) =>
      relationPage<string, LoadedAccount[]>(ctx, info, { range, direction, take }, async (sponsors) => {
        const ids = await sponsoredIds(ctx, sponsors, range, direction, take);
        const accounts = await accountsInOrder(ctx, info, [...new Set([...ids.values()].flat())]);
        const byId = new Map(accounts.map((account) => [account.id, account]));
        return sponsors.map((one) => (ids.get(one) ?? []).flatMap((id) => byId.get(id) ?? []));
      }).load(sponsor),
    cursor: (account) => account.id,
  };
}

/**
 * An offer's trades as a relation (Offer.trades): the first `take` trades of every offer of a page
 * in one statement (a window over the trades of either side), then those trades with the selection
 * in one more, whatever the number of offers.
 */
export function offerTradeList(ctx: ApiContext, info: GraphQLResolveInfo, offerId: bigint): KeysetSource<Trade, PairPagingToken> {
  return {
    key: pairKey,
    fetch: (range, direction, take) =>
      relationPage<bigint, Trade[], string>(
        ctx,
        info,
        { range, direction, take },
        async (offers) => {
          const order = Prisma.raw(direction === 'asc' ? 'ASC' : 'DESC');
          const bounds = [
            ...(range.gt ? [Prisma.sql`(t.operation_id, t."order") > (${range.gt.operationId}, ${range.gt.order})`] : []),
            ...(range.lt ? [Prisma.sql`(t.operation_id, t."order") < (${range.lt.operationId}, ${range.lt.order})`] : []),
          ];
          const keys = await ctx.prisma.$queryRaw<{ offer: bigint; operation_id: bigint; order: number }[]>`
            SELECT offer, operation_id, "order" FROM (
              SELECT k.offer, t.operation_id, t."order",
                row_number() OVER (PARTITION BY k.offer ORDER BY t.operation_id ${order}, t."order" ${order}) AS n
              FROM unnest(${offers.map(String)}::bigint[]) AS k(offer)
              JOIN history_trades t ON t.base_offer_id = k.offer OR t.counter_offer_id = k.offer
              ${bounds.length > 0 ? Prisma.sql`WHERE ${Prisma.join(bounds, ' AND ')}` : Prisma.empty}
            ) ranked
            WHERE n <= ${take}
            ORDER BY offer, n`;
          const trades =
            keys.length === 0
              ? []
              : await ctx.prisma.trade.findMany({
                  ...nodeQuery(ctx, info),
                  where: { OR: keys.map((key) => ({ operationId: key.operation_id, order: key.order })) },
                });
          const byKey = new Map(trades.map((trade) => [`${trade.operationId}-${trade.order}`, trade]));
          // each offer's trades in the window's order, grouped in one pass (a page may hold 200 × 200)
          const byOffer = new Map<bigint, Trade[]>();
          for (const key of keys) {
            const trade = byKey.get(`${key.operation_id}-${key.order}`);
            if (!trade) continue;
            const list = byOffer.get(key.offer);
            if (list) list.push(trade);
            else byOffer.set(key.offer, [trade]);
          }
          return offers.map((offer) => byOffer.get(offer) ?? []);
        },
        { cacheKeyFn: (offer) => offer.toString() },
      ).load(offerId),
    cursor: pairCursor,
  };
}

/** Asset stats, keyed by (code, issuer) as Horizon lists them; the cursor is their paging token. */
const assetStatKey: KeyKind<AssetStatKey> = { parse: parseAssetStatPagingToken };

function keyWhere(key: AssetStatKey, op: 'gt' | 'lt'): Prisma.AssetStatWhereInput {
  return { OR: [{ assetCode: { [op]: key.code } }, { assetCode: key.code, assetIssuer: { [op]: key.issuer } }] };
}

type AssetStatRow = AssetStat & { issuer: { flags: number; homeDomain: string } | null };

export function assetStatList(
  ctx: ApiContext,
  info: GraphQLResolveInfo,
  where: Prisma.AssetStatWhereInput,
): KeysetSource<AssetStatRow, AssetStatKey> {
  return {
    key: assetStatKey,
    fetch: (range, direction, take) =>
      // read with their type's query (nodeQuery): they carry what the type includes, the issuer
      ctx.prisma.assetStat.findMany({
        ...nodeQuery(ctx, info),
        where: { AND: [where, ...(range.gt ? [keyWhere(range.gt, 'gt')] : []), ...(range.lt ? [keyWhere(range.lt, 'lt')] : [])] },
        orderBy: [{ assetCode: direction }, { assetIssuer: direction }],
        take,
      }) as Promise<AssetStatRow[]>,
    cursor: (s) => formatAssetStatPagingToken(s.assetType, s.assetCode, s.assetIssuer),
  };
}

/** The first `take` holders of each asset of a page (one statement), then their accounts (one more). */
function holderPages(ctx: ApiContext, info: GraphQLResolveInfo, range: KeyRange<string>, direction: Order, take: number) {
  return relationPage<AssetStatKey, LoadedAccount[], string>(
    ctx,
    info,
    { range, direction, take },
    async (assets) => {
      // the first `take` holders of each asset in one statement, then their accounts in one more
      const rows = await ctx.prisma.$queryRaw<{ asset_code: string; asset_issuer: string; account_id: string }[]>`
        SELECT asset_code, asset_issuer, account_id FROM (
          SELECT t.asset_code, t.asset_issuer, t.account_id, row_number() OVER (
            PARTITION BY t.asset_code, t.asset_issuer
            ORDER BY CASE WHEN ${direction} = 'asc' THEN t.account_id END ASC, CASE WHEN ${direction} = 'desc' THEN t.account_id END DESC
          ) AS n
          FROM trust_lines t
          JOIN unnest(${assets.map((a) => a.code)}::text[], ${assets.map((a) => a.issuer)}::text[]) AS k(code, issuer)
            ON t.asset_code = k.code AND t.asset_issuer = k.issuer
          WHERE t.liquidity_pool_id = ''
            AND (${range.gt ?? null}::text IS NULL OR t.account_id > ${range.gt ?? null}::text)
            AND (${range.lt ?? null}::text IS NULL OR t.account_id < ${range.lt ?? null}::text)
        ) h WHERE n <= ${take}`;
      const accounts = await accountsInOrder(ctx, info, [...new Set(rows.map((r) => r.account_id))]);
      const byId = new Map(accounts.map((a) => [a.id, a]));
      const sign = direction === 'asc' ? 1 : -1;
      // each asset's holders grouped in one pass (a page may hold 200 × 200), then in key order
      const byAsset = new Map<string, LoadedAccount[]>();
      for (const r of rows) {
        const account = byId.get(r.account_id);
        const key = `${r.asset_code}:${r.asset_issuer}`;
        if (!account) continue;
        const list = byAsset.get(key);
        if (list) list.push(account);
        else byAsset.set(key, [account]);
      }
      return assets.map((asset) =>
        (byAsset.get(`${asset.code}:${asset.issuer}`) ?? []).sort((a, b) => (a.id < b.id ? -sign : a.id > b.id ? sign : 0)),
      );
    },
    { cacheKeyFn: (asset) => `${asset.code}:${asset.issuer}` },
  );
}

/** The accounts with a trust line in a credit asset, by account id; batched over the assets of one page. */
export function assetHolderList(ctx: ApiContext, info: GraphQLResolveInfo, asset: AssetStatKey): KeysetSource<LoadedAccount, string> {
  return {
    key: accountIdKey,
    fetch: (range, direction, take) => holderPages(ctx, info, range, direction, take).load(asset),
    cursor: (account) => account.id,
  };
}
