// Operation details on stellar-horizon's own test inputs (internal/ingest/processors at 2abda01):
// the same XDR, decoded from Horizon's base64 or built from the values Horizon's Go constructs,
// and the details Horizon's tests expect, copied from them (Zenith writes `*_muxed_id` as strings
// where Horizon stores JSON numbers, docs/ingest.md). Each block names its Horizon test.
import { createHash } from 'node:crypto';
import { Keypair, StrKey, xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { type DetailsContext, operationDetails } from '../../../src/ingest/processors/operation_details.js';
import { operationRows } from '../../../src/ingest/processors/operations.js';
import { operationResults } from '../../../src/ingest/processors/transactions.js';
import { envelopeParts, envelopeSourceAccount, splitMeta } from '../../../src/meta/index.js';
import {
  accountIdToXdr,
  assetContractId,
  assetToXdr,
  creditAsset,
  formatCanonicalAsset,
  NATIVE_ASSET,
  type AssetValue,
} from '../../../src/stellar/index.js';
import { bigAmount, contractEvent, type SacEventName, sacTopics, v4MapData } from '../../support/sac_events.js';
import { TRANSACTION_OPERATION_DETAILS } from '../support/horizon_operation_details.js';

const NETWORK = createHash('sha256').update('passphrase').digest();

interface Tx {
  envelope: xdr.TransactionEnvelope;
  /** Horizon's zero TransactionResult is a success with no operation results */
  result?: xdr.TransactionResult;
  meta: xdr.TransactionMeta;
  network?: Buffer;
}

function context(tx: Tx): DetailsContext & { results: xdr.OperationResult[] } {
  const result = tx.result ?? successResult([]);
  const successful = result.result.type === 'txSuccess';
  const meta = tx.meta;
  return {
    operations: envelopeParts(tx.envelope).operations,
    txSource: envelopeSourceAccount(tx.envelope),
    successful,
    networkId: tx.network ?? NETWORK,
    tx: { meta, operationChanges: splitMeta(meta).ops, operationSponsored: undefined },
    results: operationResults(new xdr.TransactionResultPair({ transactionHash: Buffer.alloc(32), result })),
  };
}

/** Horizon's Details() of operation `index` of a transaction */
function details(tx: Tx, index: number) {
  const ctx = context(tx);
  const op = ctx.operations[index]!;
  const source = op.sourceAccount ?? ctx.txSource;
  const sourceId = StrKey.encodeEd25519PublicKey(source.type === 'keyTypeEd25519' ? source.ed25519.value : source.med25519.ed25519.value);
  const opResult = ctx.results[index];
  const result = ctx.successful && opResult ? xdr.expectUnionVariant(opResult, 'opInner').tr : undefined;
  return operationDetails({ op, index, source, sourceId, result }, ctx);
}

function successResult(results: xdr.OperationResult[]): xdr.TransactionResult {
  return new xdr.TransactionResult({
    feeCharged: xdr.Int64.fromString('0'),
    result: xdr.TransactionResultResult.txSuccess(results),
    ext: xdr.TransactionResultExt.v0(),
  });
}

function failedResult(): xdr.TransactionResult {
  return new xdr.TransactionResult({
    feeCharged: xdr.Int64.fromString('0'),
    result: xdr.TransactionResultResult.txFailed([]),
    ext: xdr.TransactionResultExt.v0(),
  });
}

/** a v1 envelope of these operations (source: the first operation's, as Horizon's tests leave the tx source unset) */
function envelopeOf(
  operations: xdr.Operation[],
  source?: xdr.MuxedAccount,
  ext: xdr.TransactionExt = xdr.TransactionExt.v0(),
): xdr.TransactionEnvelope {
  return xdr.TransactionEnvelope.envelopeTypeTx(
    new xdr.TransactionV1Envelope({
      tx: new xdr.Transaction({
        sourceAccount: source ?? operations[0]?.sourceAccount ?? muxed('GAUJETIZVEP2NRYLUESJ3LS66NVCEGMON4UDCBCSBEVPIID773P2W6AY'),
        fee: 0,
        seqNum: xdr.Int64.fromString('0'),
        cond: xdr.Preconditions.precondNone(),
        memo: xdr.Memo.memoNone(),
        operations,
        ext,
      }),
      signatures: [],
    }),
  );
}

/** Horizon's meta V2 with these operations' changes */
function metaV2(operations: xdr.LedgerEntryChange[][]): xdr.TransactionMeta {
  return xdr.TransactionMeta.v2(
    new xdr.TransactionMetaV2({
      txChangesBefore: [],
      operations: operations.map((changes) => new xdr.OperationMeta({ changes })),
      txChangesAfter: [],
    }),
  );
}

/** xdr.MustMuxedAddress: a G or M address as an XDR MuxedAccount */
function muxed(address: string): xdr.MuxedAccount {
  if (address.startsWith('G')) return xdr.MuxedAccount.keyTypeEd25519(StrKey.decodeEd25519PublicKey(address));
  const raw = StrKey.decodeMed25519PublicKey(address);
  return xdr.MuxedAccount.keyTypeMuxedEd25519(
    new xdr.MuxedAccountMed25519({ ed25519: raw.subarray(0, 32), id: xdr.Uint64.fromXdr(raw.subarray(32)) }),
  );
}

function operation(source: xdr.MuxedAccount | null, body: xdr.OperationBody): xdr.Operation {
  return new xdr.Operation({ sourceAccount: source, body });
}

const usd = (issuer: string): AssetValue => creditAsset('USD', issuer);

describe('TestTransactionOperationDetails (transaction_operation_wrapper_test.go)', () => {
  // getRevokeSponsorshipEnvelopeXDR
  const revokeSource = muxed('GAUJETIZVEP2NRYLUESJ3LS66NVCEGMON4UDCBCSBEVPIID773P2W6AY');
  const revokeSigner = envelopeOf(
    [
      operation(
        revokeSource,
        xdr.OperationBody.revokeSponsorship(
          xdr.RevokeSponsorshipOp.revokeSponsorshipSigner(
            new xdr.RevokeSponsorshipOpSigner({
              accountId: accountIdToXdr('GAHK7EEG2WWHVKDNT4CEQFZGKF2LGDSW2IVM4S5DP42RBW3K6BTODB4A'),
              signerKey: xdr.SignerKey.signerKeyTypeEd25519(
                StrKey.decodeEd25519PublicKey('GCAHY6JSXQFKWKP6R7U5JPXDVNV4DJWOWRFLY3Y6YPBF64QRL4BPFDNS'),
              ),
            }),
          ),
        ),
      ),
    ],
    revokeSource,
  );

  it.each(TRANSACTION_OPERATION_DETAILS.map((c) => [c.desc, c] as const))('%s', (_desc, c) => {
    const tx: Tx = {
      envelope: c.envelope === null ? revokeSigner : xdr.TransactionEnvelope.fromXdr(c.envelope, 'base64'),
      result: xdr.TransactionResult.fromXdr(c.result, 'base64'),
      meta: xdr.TransactionMeta.fromXdr(c.meta, 'base64'),
    };
    expect(details(tx, c.index)).toEqual(c.expected);
  });
});

describe('TestTransactionOperationAllowTrustDetails (transaction_operation_wrapper_test.go)', () => {
  const source = muxed('GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD');
  const allowTrust = (authorize: number) =>
    operation(
      source,
      xdr.OperationBody.allowTrust(
        new xdr.AllowTrustOp({
          trustor: accountIdToXdr('GDQNY3PBOJOKYZSRMK2S7LHHGWZIUISD4QORETLMXEWXBI7KFZZMKTL3'),
          asset: xdr.AssetCode.assetTypeCreditAlphanum4(Buffer.from('COP\0')),
          authorize,
        }),
      ),
    );
  const common = {
    asset_code: 'COP',
    asset_issuer: 'GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD',
    asset_type: 'credit_alphanum4',
    trustee: 'GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD',
    trustor: 'GDQNY3PBOJOKYZSRMK2S7LHHGWZIUISD4QORETLMXEWXBI7KFZZMKTL3',
  };
  it.each([
    ['authorize', 1, { ...common, authorize: true }],
    ['authorize maintain liabilities', 2, { ...common, authorize: false, authorize_to_maintain_liabilities: true }],
    ['deauthorize', 0, { ...common, authorize: false }],
  ] as const)('%s', (_desc, flags, expected) => {
    expect(details({ envelope: envelopeOf([allowTrust(flags)]), meta: metaV2([[]]) }, 0)).toEqual(expected);
  });
});

const unconditional = () => xdr.ClaimPredicate.claimPredicateUnconditional();
const claimant = (destination: string, predicate: xdr.ClaimPredicate = unconditional()) =>
  xdr.Claimant.claimantTypeV0(new xdr.ClaimantV0({ destination: accountIdToXdr(destination), predicate }));

describe('CreateClaimableBalanceOpTestSuite.TestDetails (transaction_operation_wrapper_test.go)', () => {
  const source = muxed('GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD');
  const create = (amount: string, asset: AssetValue, claimants: xdr.Claimant[]) =>
    operation(
      source,
      xdr.OperationBody.createClaimableBalance(
        new xdr.CreateClaimableBalanceOp({ asset: assetToXdr(asset), amount: xdr.Int64.fromString(amount), claimants }),
      ),
    );

  it('claimable balance with native asset', () => {
    const op = create('100000000', NATIVE_ASSET, [claimant('GD5OVB6FKDV7P7SOJ5UB2BPLBL4XGSHPYHINR5355SY3RSXLT2BZWAKY')]);
    expect(details({ envelope: envelopeOf([op]), meta: metaV2([[]]) }, 0)).toEqual({
      asset: 'native',
      amount: '10.0000000',
      claimants: [{ destination: 'GD5OVB6FKDV7P7SOJ5UB2BPLBL4XGSHPYHINR5355SY3RSXLT2BZWAKY', predicate: { unconditional: true } }],
    });
  });

  it('claimable balance with issued asset', () => {
    const op = create('200000000', usd('GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD'), [
      claimant('GDMQUXK7ZUCWM5472ZU3YLDP4BMJLQQ76DEMNYDEY2ODEEGGRKLEWGW2'),
      claimant('GDQNY3PBOJOKYZSRMK2S7LHHGWZIUISD4QORETLMXEWXBI7KFZZMKTL3'),
    ]);
    expect(details({ envelope: envelopeOf([op]), meta: metaV2([[]]) }, 0)).toEqual({
      asset: 'USD:GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD',
      amount: '20.0000000',
      claimants: [
        { destination: 'GDMQUXK7ZUCWM5472ZU3YLDP4BMJLQQ76DEMNYDEY2ODEEGGRKLEWGW2', predicate: { unconditional: true } },
        { destination: 'GDQNY3PBOJOKYZSRMK2S7LHHGWZIUISD4QORETLMXEWXBI7KFZZMKTL3', predicate: { unconditional: true } },
      ],
    });
  });

  // the predicate of resourceadapter/claimable_balances_test.go TestClaimableBalancesPredicate
  // (its JSON, expected there: `{"and":[{"or":[{"rel_before":"12"},{"abs_before":"2020-08-26T11:15:39Z","abs_before_epoch":"1598440539"}]},{"not":{"unconditional":true}}]}`)
  it('writes a predicate as Horizon’s JSON', () => {
    const predicate = xdr.ClaimPredicate.claimPredicateAnd([
      xdr.ClaimPredicate.claimPredicateOr([
        xdr.ClaimPredicate.claimPredicateBeforeRelativeTime(xdr.Int64.fromString('12')),
        xdr.ClaimPredicate.claimPredicateBeforeAbsoluteTime(xdr.Int64.fromString('1598440539')),
      ]),
      xdr.ClaimPredicate.claimPredicateNot(unconditional()),
    ]);
    const op = create('1', NATIVE_ASSET, [claimant('GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD', predicate)]);
    const claimants = details({ envelope: envelopeOf([op]), meta: metaV2([[]]) }, 0).claimants as { predicate: unknown }[];
    expect(JSON.stringify(claimants[0]!.predicate)).toBe(
      '{"and":[{"or":[{"rel_before":"12"},{"abs_before":"2020-08-26T11:15:39Z","abs_before_epoch":"1598440539"}]},{"not":{"unconditional":true}}]}',
    );
  });
});

describe('ClaimClaimableBalanceOpTestSuite.TestDetails (transaction_operation_wrapper_test.go)', () => {
  it('names the balance and the (muxed) claimant', () => {
    const balanceId = '00000000da0d57da7d4850e7fc10d2a9d0ebc731f7afb40574c03395b17d49149b91f5be';
    const op = operation(
      muxed('MAQAA5L65LSYH7CQ3VTJ7F3HHLGCL3DSLAR2Y47263D56MNNGHSQSAAAAAAAAAAE2LP26'),
      xdr.OperationBody.claimClaimableBalance(
        new xdr.ClaimClaimableBalanceOp({ balanceId: xdr.ClaimableBalanceId.fromXdr(balanceId, 'hex') }),
      ),
    );
    expect(details({ envelope: envelopeOf([op]), meta: metaV2([[]]) }, 0)).toEqual({
      claimant: 'GAQAA5L65LSYH7CQ3VTJ7F3HHLGCL3DSLAR2Y47263D56MNNGHSQSTVY',
      claimant_muxed: 'MAQAA5L65LSYH7CQ3VTJ7F3HHLGCL3DSLAR2Y47263D56MNNGHSQSAAAAAAAAAAE2LP26',
      claimant_muxed_id: '1234',
      balance_id: balanceId,
    });
  });
});

describe('TestSponsoredSandwichTransaction_Details (transaction_operation_wrapper_test.go)', () => {
  // getSponsoredSandwichWrappers: the begin has no source (the transaction's, the muxed sponsor)
  const sponsor = muxed('MAQAA5L65LSYH7CQ3VTJ7F3HHLGCL3DSLAR2Y47263D56MNNGHSQSAAAAAAAAAAE2LP26');
  const sponsorAID = accountIdToXdr('GAQAA5L65LSYH7CQ3VTJ7F3HHLGCL3DSLAR2Y47263D56MNNGHSQSTVY');
  const sponsoree = 'GA5WBPYA5Y4WAEHXWR2UKO2UO4BUGHUQ74EUPKON2QHV4WRHOIRNKKH2';
  const created = new xdr.LedgerEntry({
    lastModifiedLedgerSeq: 12345,
    data: xdr.LedgerEntryData.account(
      new xdr.AccountEntry({
        accountId: accountIdToXdr('GAUJETIZVEP2NRYLUESJ3LS66NVCEGMON4UDCBCSBEVPIID773P2W6AY'),
        balance: xdr.Int64.fromString('100'),
        seqNum: xdr.Int64.fromString('0'),
        numSubEntries: 0,
        inflationDest: null,
        flags: 0,
        homeDomain: Buffer.alloc(0),
        thresholds: Buffer.alloc(4),
        signers: [],
        ext: xdr.AccountEntryExt.v0(),
      }),
    ),
    ext: xdr.LedgerEntryExt.v1(new xdr.LedgerEntryExtensionV1({ sponsoringId: sponsorAID, ext: xdr.LedgerEntryExtensionV1Ext.v0() })),
  });
  const tx: Tx = {
    envelope: envelopeOf(
      [
        operation(
          null,
          xdr.OperationBody.beginSponsoringFutureReserves(
            new xdr.BeginSponsoringFutureReservesOp({ sponsoredId: accountIdToXdr(sponsoree) }),
          ),
        ),
        operation(
          muxed(sponsoree),
          xdr.OperationBody.createAccount(
            new xdr.CreateAccountOp({
              destination: accountIdToXdr('GC6VKA3RC3CVU7POEKFORVMHWJNQIRZS6AEH3KIIHCVO3YRGWUV7MSUC'),
              startingBalance: xdr.Int64.fromString('0'),
            }),
          ),
        ),
        operation(muxed(sponsoree), xdr.OperationBody.endSponsoringFutureReserves()),
      ],
      sponsor,
    ),
    meta: metaV2([[], [xdr.LedgerEntryChange.ledgerEntryCreated(created)], []]),
  };

  it('gives the begin its sponsored id, the sponsored operation its sponsor and the end its begin’s (muxed) source', () => {
    expect(details(tx, 0)).toEqual({ sponsored_id: sponsoree });
    expect(details(tx, 1)).toEqual({
      account: 'GC6VKA3RC3CVU7POEKFORVMHWJNQIRZS6AEH3KIIHCVO3YRGWUV7MSUC',
      funder: sponsoree,
      sponsor: 'GAQAA5L65LSYH7CQ3VTJ7F3HHLGCL3DSLAR2Y47263D56MNNGHSQSTVY',
      starting_balance: '0.0000000',
    });
    expect(details(tx, 2)).toEqual({
      begin_sponsor: 'GAQAA5L65LSYH7CQ3VTJ7F3HHLGCL3DSLAR2Y47263D56MNNGHSQSTVY',
      begin_sponsor_muxed: 'MAQAA5L65LSYH7CQ3VTJ7F3HHLGCL3DSLAR2Y47263D56MNNGHSQSAAAAAAAAAAE2LP26',
      begin_sponsor_muxed_id: '1234',
    });
  });

  // findInitatingBeginSponsoringOp: a failed transaction's sandwich is not trusted
  it('leaves a failed transaction’s end without its begin', () => {
    expect(details({ ...tx, result: failedResult() }, 2)).toEqual({});
  });
});

// The details whose REST rendering resourceadapter/operations_test.go checks
// (TestPopulateOperation_OperationTypeRevokeSponsorship_*), from the ledger keys they name; the
// pool keys' ids are their hashes in hex (PoolIDToString).
describe('revoke_sponsorship of each ledger key', () => {
  const owner = 'GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD';
  const poolId = new xdr.PoolId(Buffer.alloc(32, 0xab));
  const revoke = (key: xdr.LedgerKey) =>
    details(
      {
        envelope: envelopeOf([
          operation(muxed(owner), xdr.OperationBody.revokeSponsorship(xdr.RevokeSponsorshipOp.revokeSponsorshipLedgerEntry(key))),
        ]),
        meta: metaV2([[]]),
      },
      0,
    );
  it.each([
    ['account', xdr.LedgerKey.account(new xdr.LedgerKeyAccount({ accountId: accountIdToXdr(owner) })), { account_id: owner }],
    [
      'data',
      xdr.LedgerKey.data(new xdr.LedgerKeyData({ accountId: accountIdToXdr(owner), dataName: 'name' })),
      { data_account_id: owner, data_name: 'name' },
    ],
    [
      'offer',
      xdr.LedgerKey.offer(new xdr.LedgerKeyOffer({ sellerId: accountIdToXdr(owner), offerId: xdr.Int64.fromString('1000') })),
      { offer_id: '1000' },
    ],
    [
      'trust line',
      xdr.LedgerKey.trustline(
        new xdr.LedgerKeyTrustLine({
          accountId: accountIdToXdr(owner),
          asset: xdr.TrustLineAsset.assetTypeCreditAlphanum4(
            new xdr.AlphaNum4({ assetCode: Buffer.from('COP\0'), issuer: accountIdToXdr(owner) }),
          ),
        }),
      ),
      { trustline_account_id: owner, trustline_asset: `COP:${owner}` },
    ],
    [
      'pool-share trust line',
      xdr.LedgerKey.trustline(
        new xdr.LedgerKeyTrustLine({
          accountId: accountIdToXdr(owner),
          asset: xdr.TrustLineAsset.assetTypePoolShare(poolId),
        }),
      ),
      { trustline_account_id: owner, trustline_liquidity_pool_id: 'ab'.repeat(32) },
    ],
    [
      'liquidity pool',
      xdr.LedgerKey.liquidityPool(new xdr.LedgerKeyLiquidityPool({ liquidityPoolId: poolId })),
      { liquidity_pool_id: 'ab'.repeat(32) },
    ],
  ] as const)('%s', (_name, key, expected) => {
    expect(revoke(key)).toEqual(expected);
  });
});

describe('ClawbackTestSuite.TestDetails (transaction_operation_wrapper_test.go)', () => {
  it('names the asset, the (muxed) account clawed back from and the amount', () => {
    const op = operation(
      muxed('MAQAA5L65LSYH7CQ3VTJ7F3HHLGCL3DSLAR2Y47263D56MNNGHSQSAAAAAAAAAAE2LP26'),
      xdr.OperationBody.clawback(
        new xdr.ClawbackOp({
          asset: assetToXdr(usd('GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD')),
          from: muxed('MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUQ'),
          amount: xdr.Int64.fromString('20'),
        }),
      ),
    );
    expect(details({ envelope: envelopeOf([op]), meta: metaV2([[]]) }, 0)).toEqual({
      asset_code: 'USD',
      asset_issuer: 'GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD',
      asset_type: 'credit_alphanum4',
      amount: '0.0000020',
      from: 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ',
      from_muxed: 'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUQ',
      from_muxed_id: '0',
    });
  });
});

describe('SetTrustLineFlagsTestSuite.TestDetails (transaction_operation_wrapper_test.go)', () => {
  it('names the trustor, the asset and the flags set and cleared', () => {
    const op = operation(
      muxed('GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD'),
      xdr.OperationBody.setTrustLineFlags(
        new xdr.SetTrustLineFlagsOp({
          trustor: accountIdToXdr('GAUJETIZVEP2NRYLUESJ3LS66NVCEGMON4UDCBCSBEVPIID773P2W6AY'),
          asset: assetToXdr(usd('GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD')),
          clearFlags: 4 | 1,
          setFlags: 2,
        }),
      ),
    );
    expect(details({ envelope: envelopeOf([op]), meta: metaV2([[]]) }, 0)).toEqual({
      asset_code: 'USD',
      asset_issuer: 'GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD',
      asset_type: 'credit_alphanum4',
      clear_flags: [1, 4],
      clear_flags_s: ['authorized', 'clawback_enabled'],
      set_flags: [2],
      set_flags_s: ['authorized_to_maintain_liabilites'],
      trustor: 'GAUJETIZVEP2NRYLUESJ3LS66NVCEGMON4UDCBCSBEVPIID773P2W6AY',
    });
  });
});

describe('liquidity pool deposits and withdrawals (transaction_operation_wrapper_test.go)', () => {
  const poolId = new xdr.PoolId(Buffer.concat([Buffer.from([0xca, 0xfe, 0xba, 0xbe]), Buffer.alloc(28)]));
  const source = muxed('GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD');
  const usdAsset = usd('GAUJETIZVEP2NRYLUESJ3LS66NVCEGMON4UDCBCSBEVPIID773P2W6AY');
  const pool = (reserveA: number, reserveB: number, shares: number) =>
    new xdr.LedgerEntry({
      lastModifiedLedgerSeq: 20,
      data: xdr.LedgerEntryData.liquidityPool(
        new xdr.LiquidityPoolEntry({
          liquidityPoolId: poolId,
          body: xdr.LiquidityPoolEntryBody.liquidityPoolConstantProduct(
            new xdr.LiquidityPoolEntryConstantProduct({
              params: new xdr.LiquidityPoolConstantProductParameters({
                assetA: assetToXdr(usdAsset),
                assetB: assetToXdr(NATIVE_ASSET),
                fee: 20,
              }),
              reserveA: xdr.Int64.fromString(String(reserveA)),
              reserveB: xdr.Int64.fromString(String(reserveB)),
              totalPoolShares: xdr.Int64.fromString(String(shares)),
              poolSharesTrustLineCount: xdr.Int64.fromString('10'),
            }),
          ),
        }),
      ),
      ext: xdr.LedgerEntryExt.v0(),
    });
  const changes = (before: xdr.LedgerEntry, after: xdr.LedgerEntry) => [
    xdr.LedgerEntryChange.ledgerEntryState(before),
    xdr.LedgerEntryChange.ledgerEntryUpdated(after),
  ];
  const deposit = operation(
    source,
    xdr.OperationBody.liquidityPoolDeposit(
      new xdr.LiquidityPoolDepositOp({
        liquidityPoolId: poolId,
        maxAmountA: xdr.Int64.fromString('100'),
        maxAmountB: xdr.Int64.fromString('200'),
        minPrice: new xdr.Price({ n: 50, d: 3 }),
        maxPrice: new xdr.Price({ n: 100, d: 2 }),
      }),
    ),
  );
  const withdraw = operation(
    source,
    xdr.OperationBody.liquidityPoolWithdraw(
      new xdr.LiquidityPoolWithdrawOp({
        liquidityPoolId: poolId,
        amount: xdr.Int64.fromString('10'),
        minAmountA: xdr.Int64.fromString('5'),
        minAmountB: xdr.Int64.fromString('10'),
      }),
    ),
  );
  const prices = {
    liquidity_pool_id: 'cafebabe00000000000000000000000000000000000000000000000000000000',
    min_price: '16.6666667',
    min_price_r: { d: 3, n: 50 },
    max_price: '50.0000000',
    max_price_r: { d: 2, n: 100 },
  };
  const USD = 'USD:GAUJETIZVEP2NRYLUESJ3LS66NVCEGMON4UDCBCSBEVPIID773P2W6AY';

  it('TestLiquidityPoolDepositDetails: the reserves and shares the deposit changed', () => {
    const meta = metaV2([changes(pool(100, 200, 1000), pool(160, 250, 1010))]);
    expect(details({ envelope: envelopeOf([deposit]), meta }, 0)).toEqual({
      ...prices,
      reserves_deposited: [
        { asset: USD, amount: '0.0000060' },
        { asset: 'native', amount: '0.0000050' },
      ],
      reserves_max: [
        { asset: USD, amount: '0.0000100' },
        { asset: 'native', amount: '0.0000200' },
      ],
      shares_received: '0.0000010',
    });
  });

  // Horizon's expected base.AssetAmount{Asset: ""}: its JSON leaves `asset` out (omitempty)
  it('TestFailedLiquidityPoolDepositDetails: no assets and zero amounts', () => {
    expect(details({ envelope: envelopeOf([deposit]), result: failedResult(), meta: metaV2([[]]) }, 0)).toEqual({
      ...prices,
      reserves_deposited: [{ amount: '0.0000000' }, { amount: '0.0000000' }],
      reserves_max: [{ amount: '0.0000100' }, { amount: '0.0000200' }],
      shares_received: '0.0000000',
    });
  });

  it('TestLiquidityPoolWithdrawDetails: the reserves the withdrawal received', () => {
    const meta = metaV2([changes(pool(160, 250, 1010), pool(100, 200, 1000))]);
    expect(details({ envelope: envelopeOf([withdraw]), meta }, 0)).toEqual({
      liquidity_pool_id: 'cafebabe00000000000000000000000000000000000000000000000000000000',
      reserves_received: [
        { asset: USD, amount: '0.0000060' },
        { asset: 'native', amount: '0.0000050' },
      ],
      reserves_min: [
        { asset: USD, amount: '0.0000005' },
        { asset: 'native', amount: '0.0000010' },
      ],
      shares: '0.0000010',
    });
  });

  it('TestFailedLiquidityPoolWithdrawDetails: no assets and zero amounts', () => {
    expect(details({ envelope: envelopeOf([withdraw]), result: failedResult(), meta: metaV2([[]]) }, 0)).toEqual({
      liquidity_pool_id: 'cafebabe00000000000000000000000000000000000000000000000000000000',
      reserves_received: [{ amount: '0.0000000' }, { amount: '0.0000000' }],
      reserves_min: [{ amount: '0.0000005' }, { amount: '0.0000010' }],
      shares: '0.0000010',
    });
  });
});

// contractevents.GenerateEvent: a SAC event as meta v3 has it (admin in mint and clawback topics),
// or, with a muxed id, with v4's {amount, to_muxed_id} data
function generateEvent(
  type: SacEventName,
  from: string,
  to: string,
  admin: string,
  asset: AssetValue,
  amount: bigint,
  network: Buffer,
  muxedId?: bigint,
): xdr.ContractEvent {
  const topics = sacTopics(type, from, to, admin, xdr.ScVal.scvString(formatCanonicalAsset(asset)));
  const data = muxedId === undefined ? bigAmount(amount) : v4MapData(amount, xdr.ScVal.scvU64(muxedId));
  return contractEvent(assetContractId(asset, network), topics, data);
}

describe('TestOperationTypeInvokeHostFunctionDetails (operations_processor_test.go)', () => {
  const source = muxed('GAUJETIZVEP2NRYLUESJ3LS66NVCEGMON4UDCBCSBEVPIID773P2W6AY');
  const soroban = xdr.TransactionExt.sorobanData(
    new xdr.SorobanTransactionData({
      ext: xdr.SorobanTransactionDataExt.v0(),
      resources: new xdr.SorobanResources({
        footprint: new xdr.LedgerFootprint({ readOnly: [], readWrite: [] }),
        instructions: 0,
        diskReadBytes: 0,
        writeBytes: 0,
      }),
      resourceFee: xdr.Int64.fromString('0'),
    }),
  );
  const metaV3 = (events: xdr.ContractEvent[] | null) =>
    xdr.TransactionMeta.v3(
      new xdr.TransactionMetaV3({
        ext: xdr.ExtensionPoint.v0(),
        txChangesBefore: [],
        operations: [],
        txChangesAfter: [],
        sorobanMeta:
          events === null
            ? null
            : new xdr.SorobanTransactionMeta({
                ext: xdr.SorobanTransactionMetaExt.v0(),
                events,
                returnValue: xdr.ScVal.scvVoid(),
                diagnosticEvents: [],
              }),
      }),
    );
  const invoke = (fn: xdr.HostFunction) =>
    envelopeOf(
      [operation(source, xdr.OperationBody.invokeHostFunction(new xdr.InvokeHostFunctionOp({ hostFunction: fn, auth: [] })))],
      source,
      soroban,
    );
  const contract = xdr.ScAddress.scAddressTypeContract(new xdr.ContractId(Buffer.concat([Buffer.from([1, 2]), Buffer.alloc(30)])));
  const invokeFoo = xdr.HostFunction.hostFunctionTypeInvokeContract(
    new xdr.InvokeContractArgs({ contractAddress: contract, functionName: 'foo', args: [] }),
  );

  it('InvokeContract: each parameter’s type and XDR, the contract and function first', () => {
    // the last of Horizon's arguments, an ScVal of type 5555, cannot be built (nor decoded) here
    const args = [
      xdr.ScVal.scvI32(-5),
      xdr.ScVal.scvU32(6),
      xdr.ScVal.scvU64(xdr.Uint64.fromString('3')),
      xdr.ScVal.scvBytes(Buffer.from([0, 1, 2])),
      xdr.ScVal.scvBool(true),
    ];
    const fn = xdr.HostFunction.hostFunctionTypeInvokeContract(
      new xdr.InvokeContractArgs({ contractAddress: contract, functionName: 'func1', args }),
    );
    const d = details({ envelope: invoke(fn), meta: metaV3(null) }, 0);
    expect(d.function).toBe('HostFunctionTypeHostFunctionTypeInvokeContract');
    const all = [xdr.ScVal.scvAddress(contract), xdr.ScVal.scvSymbol('func1'), ...args];
    const types = ['Address', 'Sym', 'I32', 'U32', 'U64', 'Bytes', 'B'];
    expect(d.parameters).toEqual(all.map((v, i) => ({ type: types[i], value: v.toXdr('base64') })));
  });

  it('CreateContractFromAsset', () => {
    const fn = xdr.HostFunction.hostFunctionTypeCreateContract(
      new xdr.CreateContractArgs({
        contractIdPreimage: xdr.ContractIdPreimage.contractIdPreimageFromAsset(
          assetToXdr(creditAsset('ARS', 'GCXI6Q73J7F6EUSBZTPW4G4OUGVDHABPYF2U4KO7MVEX52OH5VMVUCRF')),
        ),
        executable: xdr.ContractExecutable.contractExecutableStellarAsset(),
      }),
    );
    const d = details({ envelope: invoke(fn), meta: metaV3(null) }, 0);
    expect(d.function).toBe('HostFunctionTypeHostFunctionTypeCreateContract');
    expect(d.from).toBe('asset');
    expect(d.asset).toBe('ARS:GCXI6Q73J7F6EUSBZTPW4G4OUGVDHABPYF2U4KO7MVEX52OH5VMVUCRF');
  });

  it('CreateContractFromAddress', () => {
    const fn = xdr.HostFunction.hostFunctionTypeCreateContract(
      new xdr.CreateContractArgs({
        contractIdPreimage: xdr.ContractIdPreimage.contractIdPreimageFromAddress(
          new xdr.ContractIdPreimageFromAddress({
            address: xdr.ScAddress.scAddressTypeAccount(accountIdToXdr('GB7BDSZU2Y27LYNLALKKALB52WS2IZWYBDGY6EQBLEED3TJOCVMZRH7H')),
            salt: Buffer.concat([Buffer.from([1]), Buffer.alloc(31)]),
          }),
        ),
        executable: xdr.ContractExecutable.contractExecutableWasm(Buffer.alloc(32)),
      }),
    );
    const d = details({ envelope: invoke(fn), meta: metaV3(null) }, 0);
    expect(d.function).toBe('HostFunctionTypeHostFunctionTypeCreateContract');
    expect(d.from).toBe('address');
    expect(d.address).toBe('GB7BDSZU2Y27LYNLALKKALB52WS2IZWYBDGY6EQBLEED3TJOCVMZRH7H');
    // xdr.Uint256{1}.String(): 2^248 in decimal
    expect(d.salt).toBe((1n << 248n).toString());
  });

  it('UploadContractWasm', () => {
    const fn = xdr.HostFunction.hostFunctionTypeUploadContractWasm(Buffer.from('Some contract code'));
    expect(details({ envelope: invoke(fn), meta: metaV3(null) }, 0)).toEqual({
      function: 'HostFunctionTypeHostFunctionTypeUploadContractWasm',
    });
  });

  const network = createHash('sha256').update('passphrase').digest();
  const asset = creditAsset('TESTING', Keypair.random().publicKey());
  const account = Keypair.random().publicKey();
  const zeroContract = StrKey.encodeContract(Buffer.alloc(32));

  it('InvokeHostWithMuxInfoInSacEventsDetails: a v4 transfer’s destination muxed id', () => {
    const transfer = generateEvent('transfer', account, zeroContract, '', asset, 10_000_000n, network, 111n);
    const meta = xdr.TransactionMeta.v4(
      new xdr.TransactionMetaV4({
        ext: xdr.ExtensionPoint.v0(),
        txChangesBefore: [],
        operations: [new xdr.OperationMetaV2({ ext: xdr.ExtensionPoint.v0(), changes: [], events: [transfer] })],
        txChangesAfter: [],
        sorobanMeta: null,
        events: [],
        diagnosticEvents: [],
      }),
    );
    const d = details({ envelope: invoke(invokeFoo), meta, network }, 0);
    const changes = d.asset_balance_changes as Record<string, unknown>[];
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      type: 'transfer',
      from: account,
      to: zeroContract,
      amount: '1.0000000',
      destination_muxed_id: '111',
    });
  });

  it('InvokeContractWithSACEventsInDetails: one balance change per v3 transfer, burn, mint and clawback', () => {
    const events = [
      generateEvent('transfer', account, zeroContract, '', asset, 10_000_000n, network),
      generateEvent('burn', zeroContract, '', '', asset, 10_000_000n, network),
      generateEvent('mint', '', zeroContract, account, asset, 10_000_000n, network),
      generateEvent('clawback', zeroContract, '', account, asset, 10_000_000n, network),
    ];
    const d = details({ envelope: invoke(invokeFoo), meta: metaV3(events), network }, 0);
    const changes = d.asset_balance_changes as Record<string, unknown>[];
    expect(changes).toHaveLength(4);
    const byType = Object.fromEntries(changes.map((c) => [c.type, c]));
    expect(byType.transfer).toMatchObject({ from: account, to: zeroContract, amount: '1.0000000' });
    expect(byType.burn).toMatchObject({ from: zeroContract, amount: '1.0000000' });
    expect(byType.burn).not.toHaveProperty('to');
    expect(byType.mint).toMatchObject({ to: zeroContract, amount: '1.0000000' });
    expect(byType.mint).not.toHaveProperty('from');
    expect(byType.clawback).toMatchObject({ from: zeroContract, amount: '1.0000000' });
    expect(byType.clawback).not.toHaveProperty('to');
    // and the asset, as Horizon's addAssetDetails writes it
    expect(byType.transfer).toMatchObject({ asset_type: 'credit_alphanum12', asset_code: 'TESTING', asset_issuer: asset.issuer });
  });

  it('leaves out events from another network’s asset contract, and makes the operation a payment only with SAC events', () => {
    const events = [generateEvent('transfer', account, zeroContract, '', asset, 10_000_000n, network)];
    const elsewhere = details({ envelope: invoke(invokeFoo), meta: metaV3(events), network: Buffer.from(NETWORK).reverse() }, 0);
    expect(elsewhere.asset_balance_changes).toBeNull();
    const rows = (meta: xdr.TransactionMeta) => {
      const ctx = context({ envelope: invoke(invokeFoo), meta, network });
      const { operations: ops, ...rest } = ctx;
      return operationRows(ops, { ...rest, ledgerSequence: 2, txIndex: 1, txId: 1n << 32n, txHash: '00', closedAt: '' });
    };
    expect(rows(metaV3(events))[0]!.is_payment).toBe(true);
    expect(rows(metaV3([]))[0]!.is_payment).toBe(false);
  });
});
