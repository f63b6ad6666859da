// Account: an account's current state (balances, signers, data, thresholds, flags), its open offers
// and its trades; its history lists (transactions, operations, payments, effects) are history_lists.ts.
import type { TrustLine } from '../../generated/prisma/client.js';
import { builder } from './builder.js';
import { accountInclude, lastModifiedTimeField } from './state_entry.js';
import { accountFilterArg, accountIdArg } from './inputs.js';
import { tradeList } from './lists.js';
import { accountList, offerList, sponsoringList } from './state_lists.js';
import { OfferRef } from './offer.js';
import { keysetConnection, listArgs } from './paging.js';
import { TradeRef, tradeTypeArg, tradeTypeWhere } from './trade.js';
import { verbatim } from './verbatim.js';

// xdr AccountFlags and TrustLineFlags
const AUTH_REQUIRED = 1;
const AUTH_REVOCABLE = 2;
const AUTH_IMMUTABLE = 4;
const AUTH_CLAWBACK_ENABLED = 8;
const TRUSTLINE_AUTHORIZED = 1;
const TRUSTLINE_AUTHORIZED_TO_MAINTAIN_LIABILITIES = 2;
const TRUSTLINE_CLAWBACK_ENABLED = 4;

interface Balance {
  balance: bigint;
  liquidityPoolId: string | null;
  limit: bigint | null;
  buyingLiabilities: bigint | null;
  sellingLiabilities: bigint | null;
  lastModifiedLedger: number | null;
  isAuthorized: boolean | null;
  isAuthorizedToMaintainLiabilities: boolean | null;
  isClawbackEnabled: boolean | null;
  assetType: string;
  assetCode: string | null;
  assetIssuer: string | null;
  sponsor: string | null;
}

const BalanceRef = builder.objectRef<Balance>('Balance').implement({
  description: 'What an account holds of one asset: lumens, an authorized trust line, or the shares of a liquidity pool.',
  fields: (t) => ({
    balance: t.expose('balance', { type: 'Amount' }),
    liquidityPoolId: t.exposeString('liquidityPoolId', { nullable: true, description: 'pool shares: the hex id of the pool' }),
    limit: t.expose('limit', { type: 'Amount', nullable: true, description: 'absent for lumens' }),
    buyingLiabilities: t.expose('buyingLiabilities', { type: 'Amount', nullable: true, description: 'absent for pool shares' }),
    sellingLiabilities: t.expose('sellingLiabilities', { type: 'Amount', nullable: true, description: 'absent for pool shares' }),
    lastModifiedLedger: t.exposeInt('lastModifiedLedger', { nullable: true }),
    isAuthorized: t.exposeBoolean('isAuthorized', { nullable: true }),
    isAuthorizedToMaintainLiabilities: t.exposeBoolean('isAuthorizedToMaintainLiabilities', { nullable: true }),
    isClawbackEnabled: t.exposeBoolean('isClawbackEnabled', { nullable: true }),
    assetType: t.exposeString('assetType'),
    assetCode: t.exposeString('assetCode', { nullable: true }),
    assetIssuer: t.exposeString('assetIssuer', { nullable: true }),
    sponsor: t.exposeString('sponsor', { nullable: true, description: 'the account sponsoring the trust line’s reserve' }),
  }),
});

/**
 * Horizon's order of balances (GetSortedTrustLinesByAccountID: asset code, issuer, pool id; pool
 * shares, with no code, first), compared by code units whatever the database's collation.
 */
function byAssetAndPool(a: TrustLine, b: TrustLine): number {
  for (const key of ['assetCode', 'assetIssuer', 'liquidityPoolId'] as const) {
    if (a[key] !== b[key]) return a[key] < b[key] ? -1 : 1;
  }
  return 0;
}

/**
 * Pool shares as Horizon shows them (PopulatePoolShareBalance): balance, limit and flags, no
 * liabilities, is_clawback_enabled only when set. They are listed whatever their flags: the
 * spec's rule that a trust line shows once its issuer authorizes it does not reach them, since no
 * one authorizes pool shares (stellar-core creates them with no flags, and SetTrustLineFlags takes
 * only assets).
 */
function poolShareBalance(line: TrustLine): Balance {
  const authorized = (line.flags & TRUSTLINE_AUTHORIZED) !== 0;
  return {
    balance: line.balance,
    liquidityPoolId: line.liquidityPoolId,
    limit: line.limit,
    buyingLiabilities: null,
    sellingLiabilities: null,
    lastModifiedLedger: line.lastModifiedLedger,
    isAuthorized: authorized,
    // CAP-18: authorized implies authorized to maintain liabilities
    isAuthorizedToMaintainLiabilities: authorized || (line.flags & TRUSTLINE_AUTHORIZED_TO_MAINTAIN_LIABILITIES) !== 0,
    isClawbackEnabled: (line.flags & TRUSTLINE_CLAWBACK_ENABLED) !== 0 ? true : null,
    assetType: 'liquidity_pool_shares',
    assetCode: null,
    assetIssuer: null,
    sponsor: line.sponsor,
  };
}

interface AccountSigner {
  key: string;
  weight: number;
  type: string;
  sponsor: string | null;
}

const SIGNER_TYPES: Record<string, string> = {
  G: 'ed25519_public_key',
  T: 'preauth_tx',
  X: 'sha256_hash',
  P: 'ed25519_signed_payload',
};

const SignerRef = builder.objectRef<AccountSigner>('AccountSigner').implement({
  description: 'A key that can sign for the account, with its weight (the master key included).',
  fields: (t) => ({
    key: t.exposeString('key'),
    publicKey: t.exposeString('key', { description: 'the same as key (older name)' }),
    weight: t.exposeInt('weight'),
    type: t.exposeString('type'),
    sponsor: t.exposeString('sponsor', { nullable: true }),
  }),
});

interface Thresholds {
  lowThreshold: number;
  medThreshold: number;
  highThreshold: number;
}

const ThresholdsRef = builder.objectRef<Thresholds>('AccountThresholds').implement({
  fields: (t) => ({
    lowThreshold: t.exposeInt('lowThreshold'),
    medThreshold: t.exposeInt('medThreshold'),
    highThreshold: t.exposeInt('highThreshold'),
  }),
});

export const FlagsRef = builder.objectRef<number>('AccountFlags').implement({
  fields: (t) => ({
    authRequired: t.boolean({ resolve: (flags) => (flags & AUTH_REQUIRED) !== 0 }),
    authRevocable: t.boolean({ resolve: (flags) => (flags & AUTH_REVOCABLE) !== 0 }),
    authImmutable: t.boolean({ resolve: (flags) => (flags & AUTH_IMMUTABLE) !== 0 }),
    authClawbackEnabled: t.boolean({ resolve: (flags) => (flags & AUTH_CLAWBACK_ENABLED) !== 0 }),
  }),
});

export const AccountRef = builder.prismaNode('Account', {
  include: accountInclude,
  description: 'An account as of the last ingested ledger.',
  id: { field: 'id' },
  fields: (t) => ({
    accountId: t.exposeString('id', { description: 'G...' }),
    pagingToken: t.exposeString('id'),
    sequence: t.expose('sequence', { type: 'Int64', description: 'the last sequence number used' }),
    sequenceLedger: t.exposeInt('sequenceLedger', { nullable: true }),
    sequenceTime: t.expose('sequenceTime', { type: 'Int64', nullable: true }),
    subentryCount: t.exposeInt('subentryCount'),
    numSponsoring: t.exposeInt('numSponsoring'),
    numSponsored: t.exposeInt('numSponsored'),
    inflationDestination: t.exposeString('inflationDestination', { nullable: true }),
    homeDomain: t.exposeString('homeDomain'),
    lastModifiedLedger: t.exposeInt('lastModifiedLedger'),
    lastModifiedTime: t.field(lastModifiedTimeField()),
    sponsor: t.exposeString('sponsor', { nullable: true, description: 'the account sponsoring this account’s reserve' }),
    thresholds: t.field({
      type: ThresholdsRef,
      resolve: (account) => ({
        lowThreshold: account.thresholdLow,
        medThreshold: account.thresholdMedium,
        highThreshold: account.thresholdHigh,
      }),
    }),
    flags: t.field({ type: FlagsRef, resolve: (account) => account.flags }),
    balances: t.field({
      type: [BalanceRef],
      description: 'authorized trust lines and pool shares, by code, issuer and pool, then lumens (as Horizon lists them)',
      resolve: (account) => [
        ...[...account.trustLines].sort(byAssetAndPool).flatMap((line): Balance[] => {
          if (line.liquidityPoolId) return [poolShareBalance(line)];
          if ((line.flags & TRUSTLINE_AUTHORIZED) === 0) return [];
          return [
            {
              balance: line.balance,
              liquidityPoolId: null,
              limit: line.limit,
              buyingLiabilities: line.buyingLiabilities,
              sellingLiabilities: line.sellingLiabilities,
              lastModifiedLedger: line.lastModifiedLedger,
              isAuthorized: true,
              // a fully authorized line may also maintain its liabilities
              isAuthorizedToMaintainLiabilities: true,
              isClawbackEnabled: (line.flags & TRUSTLINE_CLAWBACK_ENABLED) !== 0,
              assetType: line.assetType,
              assetCode: line.assetCode,
              assetIssuer: line.assetIssuer,
              sponsor: line.sponsor,
            },
          ];
        }),
        {
          balance: account.balance,
          liquidityPoolId: null,
          limit: null,
          buyingLiabilities: account.buyingLiabilities,
          sellingLiabilities: account.sellingLiabilities,
          lastModifiedLedger: null,
          isAuthorized: null,
          isAuthorizedToMaintainLiabilities: null,
          isClawbackEnabled: null,
          assetType: 'native',
          assetCode: null,
          assetIssuer: null,
          sponsor: null,
        },
      ],
    }),
    signers: t.field({
      type: [SignerRef],
      description: 'additional signers, then the master key (when its weight is not zero)',
      resolve: (account) => [
        ...account.signers.map((signer) => ({
          key: signer.signer,
          weight: signer.weight,
          type: SIGNER_TYPES[signer.signer[0] ?? ''] ?? 'unknown',
          sponsor: signer.sponsor,
        })),
        ...(account.masterWeight > 0 ? [{ key: account.id, weight: account.masterWeight, type: 'ed25519_public_key', sponsor: null }] : []),
      ],
    }),
    data: t.field({
      type: 'JSON',
      description: 'data entries: name → base64 value',
      resolve: (account) => verbatim(Object.fromEntries(account.data.map((entry) => [entry.name, entry.value]))),
    }),
  }),
});

// Relations are added apart from the type so that the refs' types do not depend on each other.
builder.prismaObjectFields(AccountRef, (t) => ({
  sponsoring: t.connection({
    type: AccountRef,
    description: 'the accounts whose entry, data, signers or trust lines this account sponsors (read for all parents at once)',
    args: listArgs,
    resolve: (account, args, ctx, info) => keysetConnection(sponsoringList(ctx, info, account.id), args),
  }),
  offers: t.connection({
    type: OfferRef,
    args: listArgs,
    resolve: (account, args, ctx, info) => keysetConnection(offerList(ctx, info, { sellerId: account.id }), args),
  }),
  trades: t.connection({
    type: TradeRef,
    args: { ...listArgs, ...tradeTypeArg },
    resolve: (account, args, ctx, info) =>
      keysetConnection(
        tradeList(ctx, info, {
          AND: [{ OR: [{ baseAccount: account.id }, { counterAccount: account.id }] }, tradeTypeWhere(args.tradeType)],
        }),
        args,
      ),
  }),
}));

builder.queryField('account', (t) =>
  t.prismaField({
    type: 'Account',
    nullable: true,
    description: 'The account with this id, if it exists as of the last ingested ledger.',
    args: { id: t.arg.string({ required: true }) },
    resolve: (query, _root, args, ctx) => ctx.prisma.account.findUnique({ ...query, where: { id: accountIdArg('id', args.id) } }),
  }),
);

/** GraphQL's names of the account filters, for its problems */
const FILTER_NAMES = { signer: 'signer', sponsor: 'sponsor', asset: 'asset', liquidityPool: 'liquidityPool' } as const;

builder.queryField('accounts', (t) =>
  t.connection({
    type: AccountRef,
    description:
      'Accounts in id order with exactly one filter: a signer, a sponsor (of the account or its sub-entries), a credit asset (CODE:ISSUER) they trust, or a liquidity pool whose shares they hold.',
    args: {
      ...listArgs,
      signer: t.arg.string(),
      sponsor: t.arg.string(),
      asset: t.arg.string({ description: 'CODE:ISSUER' }),
      liquidityPool: t.arg.string({ description: "the pool's hex id" }),
    },
    resolve: (_root, args, ctx, info) => keysetConnection(accountList(ctx, info, accountFilterArg(args, FILTER_NAMES)), args),
  }),
);
