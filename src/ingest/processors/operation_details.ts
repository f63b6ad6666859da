// Horizon's `details` of an operation (operations_processor.go: stellar-horizon at 2abda01, the
// same as stellar/go 096f654 for the classic types), for every operation type, with the `sponsor`
// Horizon adds to any operation whose changes create a sponsored entry or signer.
import { xdr } from '@stellar/stellar-sdk/base';
import { changePairs, type EntryChange, type LedgerTx, operationContractEvents, sortChangePairs } from '../../meta/index.js';
import {
  accountIdFromXdr,
  allowTrustAsset,
  assetFromXdr,
  balanceIdHex,
  claimPredicateJson,
  formatPrice,
  parseSacEvent,
  poolIdHex,
  poolIdOf,
  type SacEvent,
  scAddressString,
} from '../../stellar/index.js';
import type { Details, JsonValue } from '../rows.js';
import {
  addAccount,
  addAsset,
  addXdrAsset,
  amountOf,
  canonicalAsset,
  entrySponsor,
  liquidityPoolDelta,
  signerKeyAddress,
  sponsorPerSigner,
} from './details.js';

/** One operation of a transaction, with what the operations processor already read of it. */
export interface OperationInTx {
  op: xdr.Operation;
  /** its 0-based index in the transaction */
  index: number;
  source: xdr.MuxedAccount;
  sourceId: string;
  /** the operation's result when the transaction succeeded (it fills computed amounts), else undefined */
  result: xdr.OperationResultTr | undefined;
}

/** The transaction around the operation: read only by the types that need it. */
export interface DetailsContext {
  /** all the transaction's operations (end_sponsoring_future_reserves looks for its begin) */
  operations: xdr.Operation[];
  txSource: xdr.MuxedAccount;
  successful: boolean;
  /** the network id: a Stellar Asset Contract's id depends on it */
  networkId: Buffer;
  /** the meta: the operations' ledger entry changes (pool deltas, sponsors) and contract events */
  tx: Pick<LedgerTx, 'meta' | 'operationChanges' | 'operationSponsored'>;
}

const AUTH_FLAG_NAMES: [number, string][] = [
  [1, 'auth_required'],
  [2, 'auth_revocable'],
  [4, 'auth_immutable'],
  [8, 'auth_clawback_enabled'],
];

// (sic) Horizon's spelling
const TRUST_LINE_FLAG_NAMES: [number, string][] = [
  [1, 'authorized'],
  [2, 'authorized_to_maintain_liabilites'],
  [4, 'clawback_enabled'],
];

/** Horizon's add*FlagDetails: nil lists (JSON null) when no known flag is set */
function addFlags(details: Details, flags: number, prefix: 'set' | 'clear', names: [number, string][]): void {
  const set = names.filter(([bit]) => (flags & bit) !== 0);
  details[`${prefix}_flags`] = set.length > 0 ? set.map(([bit]) => bit) : null;
  details[`${prefix}_flags_s`] = set.length > 0 ? set.map(([, name]) => name) : null;
}

/** int64 values as JSON numbers while exact (Horizon writes numbers), else strings */
export function int64Json(value: xdr.Int64 | xdr.Uint64 | bigint): JsonValue {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
}

function price(details: Details, p: xdr.Price, key = 'price'): void {
  details[key] = formatPrice({ n: p.n, d: p.d });
  details[`${key}_r`] = { n: p.n, d: p.d };
}

function path(assets: xdr.Asset[]): Details[] {
  return assets.map((a) => {
    const d: Details = {};
    addXdrAsset(d, a);
    return d;
  });
}

/** Horizon's base.AssetAmount list: `asset` left out when unknown (a failed transaction's) */
function assetAmounts(assets: [string, string], amounts: [bigint, bigint]): Details[] {
  return assets.map((asset, i): Details => (asset === '' ? { amount: amountOf(amounts[i]!) } : { asset, amount: amountOf(amounts[i]!) }));
}

export function operationDetails(operation: OperationInTx, ctx: DetailsContext): Details {
  const { op, source, sourceId, result } = operation;
  const details: Details = {};
  const body = op.body;
  switch (body.type) {
    case 'createAccount': {
      const o = body.createAccountOp;
      addAccount(details, source, 'funder');
      details.account = accountIdFromXdr(o.destination);
      details.starting_balance = amountOf(o.startingBalance);
      break;
    }
    case 'payment': {
      const o = body.paymentOp;
      addAccount(details, source, 'from');
      addAccount(details, o.destination, 'to');
      details.amount = amountOf(o.amount);
      addXdrAsset(details, o.asset);
      break;
    }
    case 'pathPaymentStrictReceive': {
      const o = body.pathPaymentStrictReceiveOp;
      addAccount(details, source, 'from');
      addAccount(details, o.destination, 'to');
      details.amount = amountOf(o.destAmount);
      details.source_amount = amountOf(0n);
      details.source_max = amountOf(o.sendMax);
      addXdrAsset(details, o.destAsset);
      addXdrAsset(details, o.sendAsset, 'source_');
      if (result) {
        const r = xdr.expectUnionVariant(result, 'pathPaymentStrictReceive').pathPaymentStrictReceiveResult;
        details.source_amount = amountOf(strictReceiveSendAmount(xdr.expectUnionVariant(r, 'pathPaymentStrictReceiveSuccess').success));
      }
      details.path = path(o.path);
      break;
    }
    case 'pathPaymentStrictSend': {
      const o = body.pathPaymentStrictSendOp;
      addAccount(details, source, 'from');
      addAccount(details, o.destination, 'to');
      details.amount = amountOf(0n);
      details.source_amount = amountOf(o.sendAmount);
      details.destination_min = amountOf(o.destMin);
      addXdrAsset(details, o.destAsset);
      addXdrAsset(details, o.sendAsset, 'source_');
      if (result) {
        const r = xdr.expectUnionVariant(result, 'pathPaymentStrictSend').pathPaymentStrictSendResult;
        details.amount = amountOf(xdr.expectUnionVariant(r, 'pathPaymentStrictSendSuccess').success.last.amount);
      }
      details.path = path(o.path);
      break;
    }
    case 'manageBuyOffer': {
      const o = body.manageBuyOfferOp;
      details.offer_id = int64Json(o.offerId);
      details.amount = amountOf(o.buyAmount);
      price(details, o.price);
      addXdrAsset(details, o.buying, 'buying_');
      addXdrAsset(details, o.selling, 'selling_');
      break;
    }
    case 'manageSellOffer': {
      const o = body.manageSellOfferOp;
      details.offer_id = int64Json(o.offerId);
      details.amount = amountOf(o.amount);
      price(details, o.price);
      addXdrAsset(details, o.buying, 'buying_');
      addXdrAsset(details, o.selling, 'selling_');
      break;
    }
    case 'createPassiveSellOffer': {
      const o = body.createPassiveSellOfferOp;
      details.amount = amountOf(o.amount);
      price(details, o.price);
      addXdrAsset(details, o.buying, 'buying_');
      addXdrAsset(details, o.selling, 'selling_');
      break;
    }
    case 'setOptions': {
      const o = body.setOptionsOp;
      const inflationDest = o.inflationDest;
      if (inflationDest) details.inflation_dest = accountIdFromXdr(inflationDest);
      const setFlags = o.setFlags;
      if (setFlags !== null && setFlags > 0) addFlags(details, setFlags, 'set', AUTH_FLAG_NAMES);
      const clearFlags = o.clearFlags;
      if (clearFlags !== null && clearFlags > 0) addFlags(details, clearFlags, 'clear', AUTH_FLAG_NAMES);
      const optional: [string, number | null][] = [
        ['master_key_weight', o.masterWeight],
        ['low_threshold', o.lowThreshold],
        ['med_threshold', o.medThreshold],
        ['high_threshold', o.highThreshold],
      ];
      for (const [key, value] of optional) if (value !== null) details[key] = value;
      const homeDomain = o.homeDomain;
      if (homeDomain !== null) details.home_domain = Buffer.from(homeDomain.bytes).toString('utf8');
      const signer = o.signer;
      if (signer) {
        details.signer_key = signerKeyAddress(signer.key);
        details.signer_weight = signer.weight;
      }
      break;
    }
    case 'changeTrust': {
      const o = body.changeTrustOp;
      const line = o.line;
      if (line.type === 'assetTypePoolShare') {
        details.asset_type = 'liquidity_pool_shares';
        details.liquidity_pool_id = poolIdOf(line.liquidityPool);
      } else {
        addAsset(details, assetFromXdr(line));
        details.trustee = details.asset_issuer ?? null;
      }
      addAccount(details, source, 'trustor');
      details.limit = amountOf(o.limit);
      break;
    }
    case 'allowTrust': {
      const o = body.allowTrustOp;
      addAsset(details, allowTrustAsset(o, sourceId));
      addAccount(details, source, 'trustee');
      details.trustor = accountIdFromXdr(o.trustor);
      const flags = o.authorize;
      details.authorize = (flags & 1) !== 0;
      if ((flags & 2) !== 0) details.authorize_to_maintain_liabilities = true;
      if ((flags & 4) !== 0) details.clawback_enabled = true;
      break;
    }
    case 'accountMerge':
      addAccount(details, source, 'account');
      addAccount(details, body.destination, 'into');
      break;
    case 'inflation':
      break;
    case 'manageData': {
      const o = body.manageDataOp;
      details.name = Buffer.from(o.dataName.bytes).toString('utf8');
      const value = o.dataValue;
      details.value = value ? Buffer.from(value.value).toString('base64') : null;
      break;
    }
    case 'bumpSequence':
      details.bump_to = body.bumpSequenceOp.bumpTo.toString();
      break;
    case 'createClaimableBalance': {
      const o = body.createClaimableBalanceOp;
      details.asset = canonicalAsset(o.asset);
      details.amount = amountOf(o.amount);
      const claimants = o.claimants.map((c) => ({
        destination: accountIdFromXdr(c.v0.destination),
        predicate: claimPredicateJson(c.v0.predicate) as JsonValue,
      }));
      details.claimants = claimants.length > 0 ? claimants : null;
      break;
    }
    case 'claimClaimableBalance':
      details.balance_id = balanceIdHex(body.claimClaimableBalanceOp.balanceId);
      addAccount(details, source, 'claimant');
      break;
    case 'beginSponsoringFutureReserves':
      details.sponsored_id = accountIdFromXdr(body.beginSponsoringFutureReservesOp.sponsoredId);
      break;
    case 'endSponsoringFutureReserves': {
      const begin = beginSponsor(operation, ctx);
      if (begin) addAccount(details, begin, 'begin_sponsor');
      break;
    }
    case 'revokeSponsorship': {
      const o = body.revokeSponsorshipOp;
      if (o.type === 'revokeSponsorshipLedgerEntry') {
        addLedgerKey(details, o.ledgerKey);
      } else {
        details.signer_account_id = accountIdFromXdr(o.signer.accountId);
        details.signer_key = signerKeyAddress(o.signer.signerKey);
      }
      break;
    }
    case 'clawback': {
      const o = body.clawbackOp;
      addXdrAsset(details, o.asset);
      addAccount(details, o.from, 'from');
      details.amount = amountOf(o.amount);
      break;
    }
    case 'clawbackClaimableBalance':
      details.balance_id = balanceIdHex(body.clawbackClaimableBalanceOp.balanceId);
      break;
    case 'setTrustLineFlags': {
      const o = body.setTrustLineFlagsOp;
      details.trustor = accountIdFromXdr(o.trustor);
      addXdrAsset(details, o.asset);
      if (o.setFlags > 0) addFlags(details, o.setFlags, 'set', TRUST_LINE_FLAG_NAMES);
      if (o.clearFlags > 0) addFlags(details, o.clearFlags, 'clear', TRUST_LINE_FLAG_NAMES);
      break;
    }
    case 'liquidityPoolDeposit': {
      const o = body.liquidityPoolDepositOp;
      details.liquidity_pool_id = poolIdHex(o.liquidityPoolId);
      // a failed transaction's: no assets, zero amounts
      const pool = ctx.successful ? poolDelta(operation, ctx, o.liquidityPoolId) : NO_POOL;
      details.reserves_max = assetAmounts(pool.assets, [o.maxAmountA, o.maxAmountB]);
      price(details, o.minPrice, 'min_price');
      price(details, o.maxPrice, 'max_price');
      details.reserves_deposited = assetAmounts(pool.assets, [pool.reserveA, pool.reserveB]);
      details.shares_received = amountOf(pool.shares);
      break;
    }
    case 'liquidityPoolWithdraw': {
      const o = body.liquidityPoolWithdrawOp;
      details.liquidity_pool_id = poolIdHex(o.liquidityPoolId);
      const pool = ctx.successful ? poolDelta(operation, ctx, o.liquidityPoolId) : NO_POOL;
      details.reserves_min = assetAmounts(pool.assets, [o.minAmountA, o.minAmountB]);
      details.shares = amountOf(o.amount);
      details.reserves_received = assetAmounts(pool.assets, [-pool.reserveA, -pool.reserveB]);
      break;
    }
    case 'invokeHostFunction':
      addHostFunction(details, body.invokeHostFunctionOp.hostFunction, operation.index, ctx);
      break;
    case 'extendFootprintTtl':
      details.extend_to = body.extendFootprintTtlOp.extendTo;
      break;
    case 'restoreFootprint':
      break;
    default:
      break;
  }
  const sponsor = operationSponsor(operation, ctx);
  if (sponsor !== null) details.sponsor = sponsor;
  return details;
}

/** What a strict-receive path payment sent (stellar-go's SendAmount): the first hop's bought amounts. */
export function strictReceiveSendAmount(success: xdr.PathPaymentStrictReceiveResultSuccess): bigint {
  const offers = success.offers;
  // no offer crossed: the payment was in one asset
  if (offers.length === 0) return success.last.amount;
  const first = offers[0]!;
  const sold = claimAsset(first, 'bought');
  let total = 0n;
  for (const atom of offers) {
    if (assetKey(claimAsset(atom, 'bought')) === assetKey(sold)) total += claimAmount(atom, 'bought');
  }
  return total;
}

export function claimAsset(atom: xdr.ClaimAtom, side: 'sold' | 'bought'): xdr.Asset {
  const v = atom.value;
  return side === 'sold' ? v.assetSold : v.assetBought;
}

export function claimAmount(atom: xdr.ClaimAtom, side: 'sold' | 'bought'): bigint {
  const v = atom.value;
  return side === 'sold' ? v.amountSold : v.amountBought;
}

function assetKey(asset: xdr.Asset): string {
  return asset.toXdr('hex');
}

/**
 * The source of the begin_sponsoring_future_reserves an end_sponsoring_future_reserves closes: the
 * nearest one before it that sponsors its source. None in a failed transaction, whose sandwich
 * Horizon does not trust.
 */
function beginSponsor(operation: OperationInTx, ctx: DetailsContext): xdr.MuxedAccount | null {
  if (!ctx.successful) return null;
  for (let i = operation.index - 1; i >= 0; i--) {
    const op = ctx.operations[i]!;
    const body = op.body;
    if (body.type !== 'beginSponsoringFutureReserves') continue;
    if (accountIdFromXdr(body.beginSponsoringFutureReservesOp.sponsoredId) === operation.sourceId) {
      return op.sourceAccount ?? ctx.txSource;
    }
  }
  return null;
}

/** Horizon's addLedgerKeyDetails, for revoke_sponsorship */
function addLedgerKey(details: Details, key: xdr.LedgerKey): void {
  switch (key.type) {
    case 'account':
      details.account_id = accountIdFromXdr(key.account.accountId);
      break;
    case 'claimableBalance':
      details.claimable_balance_id = balanceIdHex(key.claimableBalance.balanceId);
      break;
    case 'data':
      details.data_account_id = accountIdFromXdr(key.data.accountId);
      details.data_name = Buffer.from(key.data.dataName.bytes).toString('utf8');
      break;
    case 'offer':
      details.offer_id = key.offer.offerId.toString();
      break;
    case 'trustline': {
      const t = key.trustLine;
      details.trustline_account_id = accountIdFromXdr(t.accountId);
      const asset = t.asset;
      if (asset.type === 'assetTypePoolShare') details.trustline_liquidity_pool_id = poolIdHex(asset.liquidityPoolId);
      else details.trustline_asset = canonicalAsset(asset);
      break;
    }
    case 'liquidityPool':
      details.liquidity_pool_id = poolIdHex(key.liquidityPool.liquidityPoolId);
      break;
    default:
      break;
  }
}

interface PoolAmounts {
  /** the pool's assets, canonical ("native", "CODE:ISSUER"); empty when unknown */
  assets: [string, string];
  reserveA: bigint;
  reserveB: bigint;
  shares: bigint;
}

const NO_POOL: PoolAmounts = { assets: ['', ''], reserveA: 0n, reserveB: 0n, shares: 0n };

function changes(operation: OperationInTx, ctx: DetailsContext): xdr.LedgerEntryChange[] {
  return ctx.tx.operationChanges[operation.index] ?? [];
}

/** The pool's change by the operation (Horizon's getLiquidityPoolAndProductDelta): after minus before. */
function poolDelta(operation: OperationInTx, ctx: DetailsContext, id: xdr.PoolId): PoolAmounts {
  const pools = changePairs(changes(operation, ctx)).filter((c) => c.type === 'liquidityPool');
  const delta = liquidityPoolDelta(sortChangePairs(pools), id);
  if (!delta) throw new Error(`operation ${operation.index + 1}: liquidity pool ${poolIdHex(id)} has no change in the meta`);
  const params = delta.pool.body.constantProduct.params;
  return {
    assets: [canonicalAsset(params.assetA), canonicalAsset(params.assetB)],
    reserveA: delta.reserveA,
    reserveB: delta.reserveB,
    shares: delta.shares,
  };
}

const HOST_FUNCTIONS: Record<string, string> = {
  hostFunctionTypeInvokeContract: 'HostFunctionTypeHostFunctionTypeInvokeContract',
  hostFunctionTypeCreateContract: 'HostFunctionTypeHostFunctionTypeCreateContract',
  hostFunctionTypeUploadContractWasm: 'HostFunctionTypeHostFunctionTypeUploadContractWasm',
  hostFunctionTypeCreateContractV2: 'HostFunctionTypeHostFunctionTypeCreateContractV2',
};

/** stellar-go's ScVal arm names (ArmForSwitch), which Horizon writes as a parameter's `type` */
const SC_VAL_ARMS: Record<string, string> = {
  scvBool: 'B',
  scvVoid: '',
  scvError: 'Error',
  scvU32: 'U32',
  scvI32: 'I32',
  scvU64: 'U64',
  scvI64: 'I64',
  scvTimepoint: 'Timepoint',
  scvDuration: 'Duration',
  scvU128: 'U128',
  scvI128: 'I128',
  scvU256: 'U256',
  scvI256: 'I256',
  scvBytes: 'Bytes',
  scvString: 'Str',
  scvSymbol: 'Sym',
  scvVec: 'Vec',
  scvMap: 'Map',
  scvAddress: 'Address',
  scvContractInstance: 'Instance',
  scvLedgerKeyContractInstance: '',
  scvLedgerKeyNonce: 'NonceKey',
};

/** Horizon's extractFunctionArgs: each value's arm name and XDR (base64) */
function parameters(args: xdr.ScVal[]): Details[] {
  return args.map((arg) => {
    const type = SC_VAL_ARMS[arg.type];
    return type === undefined ? { value: 'n/a', type: 'n/a' } : { value: arg.toXdr('base64'), type };
  });
}

function addContractIdPreimage(details: Details, preimage: xdr.ContractIdPreimage): void {
  if (preimage.type === 'contractIdPreimageFromAddress') {
    const from = preimage.fromAddress;
    details.from = 'address';
    details.address = scAddressString(from.address);
    // stellar-go's Uint256.String: the salt as a big-endian integer in decimal
    details.salt = BigInt(`0x${Buffer.from(from.salt.value).toString('hex')}`).toString();
  } else {
    details.from = 'asset';
    details.asset = canonicalAsset(preimage.fromAsset);
  }
}

function addHostFunction(details: Details, fn: xdr.HostFunction, index: number, ctx: DetailsContext): void {
  details.function = HOST_FUNCTIONS[fn.type] ?? '';
  switch (fn.type) {
    case 'hostFunctionTypeInvokeContract': {
      const args = fn.invokeContract;
      details.parameters = parameters([xdr.ScVal.scvAddress(args.contractAddress), xdr.ScVal.scvSymbol(args.functionName), ...args.args]);
      details.asset_balance_changes = assetBalanceChanges(ctx, index);
      break;
    }
    case 'hostFunctionTypeCreateContract':
      addContractIdPreimage(details, fn.createContract.contractIdPreimage);
      break;
    case 'hostFunctionTypeCreateContractV2': {
      const args = fn.createContractV2;
      addContractIdPreimage(details, args.contractIdPreimage);
      details.parameters = parameters(args.constructorArgs);
      details.asset_balance_changes = assetBalanceChanges(ctx, index);
      break;
    }
    default:
      break;
  }
}

/** The Stellar Asset Contract events of operation `index` (a Soroban transaction has one operation). */
export function sacEvents(ctx: Pick<DetailsContext, 'networkId' | 'tx'>, index: number): SacEvent[] {
  const meta = ctx.tx.meta;
  const out: SacEvent[] = [];
  // the TransactionMeta's version: 0 (`operations`), 1 to 4 (`v1`...`v4`)
  const version = meta.type === 'operations' ? 0 : Number(meta.type.slice(1));
  for (const event of operationContractEvents(meta, index)) {
    const sac = parseSacEvent(event, version, ctx.networkId);
    if (sac) out.push(sac);
  }
  return out;
}

/** Horizon's asset_balance_changes: one per SAC event; null (Go's nil slice) when there is none */
function assetBalanceChanges(ctx: DetailsContext, index: number): Details[] | null {
  const changes = sacEvents(ctx, index).map((e) => {
    const change: Details = {};
    if (e.from !== null) change.from = e.from;
    if (e.to !== null) change.to = e.to;
    change.type = e.type;
    change.amount = amountOf(e.amount);
    addAsset(change, e.asset);
    if (e.toMuxedId !== null) change.destination_muxed_id = e.toMuxedId.toString();
    return change;
  });
  return changes.length > 0 ? changes : null;
}

/** The sponsor a change gives the operation, in Horizon's getSponsor: a new or changed signer sponsor, or a created entry's */
function sponsorOf(change: EntryChange, signerKey: string | null): string | null {
  if (signerKey !== null && change.type === 'account' && change.post) {
    const post = sponsorPerSigner(change.post).get(signerKey);
    const pre = sponsorPerSigner(change.pre).get(signerKey);
    if (post !== undefined && (pre === undefined || pre !== post)) return post;
  }
  return change.pre ? null : entrySponsor(change.post);
}

/**
 * Horizon's `sponsor` of an operation: of its changes in ledger-key order, the first that creates
 * a sponsored entry or (set_options) gives its signer a new sponsor. The scanner tells which
 * operations cannot have one, so that their changes are not decoded.
 */
function operationSponsor(operation: OperationInTx, ctx: DetailsContext): string | null {
  if (ctx.tx.operationSponsored?.[operation.index] === false) return null;
  const op = operation.op.body;
  const signer = op.type === 'setOptions' ? op.setOptionsOp.signer : null;
  const signerKey = signer ? signerKeyAddress(signer.key) : null;
  const candidates = changePairs(changes(operation, ctx)).filter((c) => sponsorOf(c, signerKey) !== null);
  if (candidates.length === 0) return null;
  return sponsorOf(candidates.length === 1 ? candidates[0]! : sortChangePairs(candidates)[0]!, signerKey);
}
