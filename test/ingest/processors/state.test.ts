// The state processor on real ledgers. Horizon's scenarios: the state rows of each ledger, applied
// in order as the writer applies them (deletes, then upserts), end in stellar-core's final
// accounts, trust lines and offers of the -core.sql dump (its accountdata is empty). The testnet
// ledgers: the accounts the operations create, merge and configure, and the trust lines they open,
// stand in each ledger's rows as the SDK reads the operations.
import { Asset, Keypair, xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import type { LedgerView } from '../../../src/meta/index.js';
import { stateRows } from '../../../src/ingest/processors/state.js';
import type { AccountRow, DataRow, OfferRow, SignerRow, TrustLineRow } from '../../../src/ingest/rows.js';
import { SCENARIOS, TEST_PASSPHRASE, finalState, loadScenario } from '../../core/support/scenario.js';
import { scenarioViews, testnetTransactions } from '../support/scenarios.js';

/**
 * The genesis ledger's one entry, from the fixtures' README: the root account (secret seed
 * sha256(passphrase)) holds the 10^18 stroops, sequence 0, master weight 1. As the ingester does,
 * ledger 1's state rows start from it.
 */
function genesisRoot(): xdr.LedgerEntry {
  return new xdr.LedgerEntry({
    lastModifiedLedgerSeq: 1,
    data: xdr.LedgerEntryData.account(
      new xdr.AccountEntry({
        accountId: Keypair.master(TEST_PASSPHRASE).xdrAccountId(),
        balance: 1000000000000000000n,
        seqNum: 0n,
        numSubEntries: 0,
        inflationDest: null,
        flags: 0,
        homeDomain: '',
        thresholds: Buffer.from([1, 0, 0, 0]),
        signers: [],
        ext: xdr.AccountEntryExt.v0(),
      }),
    ),
    ext: xdr.LedgerEntryExt.v0(),
  });
}

/** The tables after the state rows of every ledger, as the writer leaves them. */
function applyLedgers(views: LedgerView[]) {
  const accounts = new Map<string, AccountRow>();
  const signers = new Map<string, SignerRow[]>();
  const trustLines = new Map<string, TrustLineRow>();
  const offers = new Map<bigint, OfferRow>();
  const data = new Map<string, DataRow>();
  const line = (t: { account_id: string; asset_code: string; asset_issuer: string }) => `${t.account_id}/${t.asset_code}/${t.asset_issuer}`;
  for (const view of views) {
    const rows = stateRows(view, view.sequence === 1 ? [genesisRoot()] : []);
    for (const id of rows.removedAccounts) accounts.delete(id);
    for (const id of rows.signerAccounts) signers.delete(id);
    for (const t of rows.removedTrustLines) trustLines.delete(line(t));
    for (const id of rows.removedOffers) offers.delete(id);
    for (const d of rows.removedData) data.delete(`${d.account_id}/${d.name}`);
    for (const a of rows.accounts) accounts.set(a.id, a);
    for (const s of rows.signers) signers.set(s.account_id, [...(signers.get(s.account_id) ?? []), s]);
    for (const t of rows.trustLines) trustLines.set(line(t), t);
    for (const o of rows.offers) offers.set(o.id, o);
    for (const d of rows.data) data.set(`${d.account_id}/${d.name}`, d);
  }
  return { accounts, signers, trustLines, offers, data };
}

/** stellar-core's XDR of an asset in Zenith's canonical form (native or CODE:ISSUER) */
function coreAsset(canonical: string): string {
  const [code = '', issuer] = canonical.split(':');
  return (issuer ? new Asset(code, issuer) : Asset.native()).toXDRObject().toXdr('base64');
}

/** the same rows in any order */
function expectSameRows(ours: unknown[], theirs: unknown[]): void {
  expect(ours).toEqual(expect.arrayContaining(theirs));
  expect(ours).toHaveLength(theirs.length);
}

describe.each(SCENARIOS)('state of scenario %s', (name) => {
  const views = scenarioViews(name);
  const theirs = finalState(loadScenario(name));

  it('ends in stellar-core’s final accounts, trust lines and offers', () => {
    const ours = applyLedgers(views);
    // with stellar-core's column names and encodings (fixture_replay compares our core the same way)
    const accounts = [...ours.accounts.values()]
      .map((a) => ({
        accountid: a.id,
        balance: String(a.balance),
        seqnum: String(a.sequence),
        numsubentries: String(a.subentry_count),
        inflationdest: a.inflation_destination,
        homedomain: Buffer.from(a.home_domain, 'utf8').toString('base64'),
        thresholds: Buffer.from([a.master_weight, a.threshold_low, a.threshold_medium, a.threshold_high]).toString('base64'),
        flags: String(a.flags),
        lastmodified: String(a.last_modified_ledger),
        buyingliabilities: String(a.buying_liabilities),
        sellingliabilities: String(a.selling_liabilities),
        signers: String(ours.signers.get(a.id)?.length ?? 0),
      }))
      .sort((a, b) => a.accountid.localeCompare(b.accountid));
    expect(accounts).toEqual(theirs.accounts);
    const trustLines = [...ours.trustLines.values()].map((t) => ({
      accountid: t.account_id,
      assettype: t.asset_type === 'credit_alphanum4' ? '1' : '2',
      issuer: t.asset_issuer,
      assetcode: t.asset_code,
      tlimit: String(t.limit),
      balance: String(t.balance),
      flags: String(t.flags),
      lastmodified: String(t.last_modified_ledger),
      buyingliabilities: String(t.buying_liabilities),
      sellingliabilities: String(t.selling_liabilities),
    }));
    expectSameRows(trustLines, theirs.trustlines);
    const offers = [...ours.offers.values()].map((o) => ({
      sellerid: o.seller_id,
      offerid: String(o.id),
      sellingasset: coreAsset(o.selling_asset),
      buyingasset: coreAsset(o.buying_asset),
      amount: String(o.amount),
      pricen: String(o.price_n),
      priced: String(o.price_d),
      flags: String(o.flags),
      lastmodified: String(o.last_modified_ledger),
    }));
    expectSameRows(offers, theirs.offers);
    expect([...ours.data.values()]).toEqual(theirs.accountdata);
  });
});

const txs = await testnetTransactions();

describe('state of the testnet datastore', () => {
  it('holds the accounts and trust lines the operations create, merge and configure', () => {
    const seen = new Set<string>();
    for (const view of new Set(txs.map((t) => t.view))) {
      const rows = stateRows(view);
      const account = (id: string) => rows.accounts.find((a) => a.id === id);
      const inLedger = txs.filter((t) => t.view === view);
      for (const { tx, inner, successful } of inLedger) {
        // the source's sequence number is consumed, failed or not: its last transaction of the ledger
        // sets it, unless a merge removed the account
        const last = inLedger.filter((t) => t.inner.source === inner.source).at(-1);
        if (last?.tx === tx && !rows.removedAccounts.includes(inner.source)) {
          expect(account(inner.source)?.sequence, `sequence of ${inner.source}`).toBe(BigInt(inner.sequence));
        }
        if (!successful) continue;
        for (const op of inner.operations) {
          const source = op.source ?? inner.source;
          seen.add(op.type);
          switch (op.type) {
            case 'createAccount':
              expect(account(op.destination), op.destination).toBeDefined();
              break;
            case 'accountMerge':
              expect(rows.removedAccounts).toContain(source);
              expect(account(source)).toBeUndefined();
              break;
            case 'changeTrust': {
              const line = op.line as Asset;
              const stroops = BigInt(op.limit.replace('.', ''));
              expect(rows.trustLines).toContainEqual(
                expect.objectContaining({ account_id: source, asset_code: line.getCode(), asset_issuer: line.getIssuer(), limit: stroops }),
              );
              break;
            }
            case 'setOptions': {
              expect(account(source)).toMatchObject({
                master_weight: op.masterWeight,
                threshold_low: op.lowThreshold,
                threshold_medium: op.medThreshold,
                threshold_high: op.highThreshold,
                inflation_destination: op.inflationDest,
              });
              const signer = op.signer && 'ed25519PublicKey' in op.signer ? op.signer : null;
              expect(rows.signers).toContainEqual({
                account_id: source,
                signer: signer?.ed25519PublicKey,
                weight: signer?.weight,
                sponsor: null,
              });
              break;
            }
            default:
              break;
          }
        }
      }
    }
    expect([...seen].sort()).toEqual(['accountMerge', 'changeTrust', 'createAccount', 'setOptions']);
  });
});

describe('pool shares', () => {
  // a pool-share trust line as stellar-core creates it (ChangeTrustOpFrame: no flags), then removed
  const holder = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 3)).publicKey();
  const poolId = Buffer.alloc(32, 0xab);
  const asset = xdr.TrustLineAsset.assetTypePoolShare(new xdr.PoolId(poolId));
  const view = (changes: xdr.LedgerEntryChange[]) =>
    ({
      sequence: 5,
      txs: [{ feeChanges: [], changesBefore: [], operationChanges: [changes], changesAfter: [], postApplyFeeChanges: [] }],
      upgradeChanges: [],
    }) as unknown as LedgerView;

  it('are trust lines with their pool (Horizon’s trust_lines.liquidity_pool_id), kept and removed', () => {
    const line = new xdr.LedgerEntry({
      lastModifiedLedgerSeq: 5,
      data: xdr.LedgerEntryData.trustline(
        new xdr.TrustLineEntry({
          accountId: Keypair.fromPublicKey(holder).xdrAccountId(),
          asset,
          balance: 10000n,
          limit: 123456789n,
          flags: 0,
          ext: xdr.TrustLineEntryExt.v0(),
        }),
      ),
      ext: xdr.LedgerEntryExt.v0(),
    });
    expect(stateRows(view([xdr.LedgerEntryChange.ledgerEntryCreated(line)])).trustLines).toEqual([
      {
        account_id: holder,
        asset_type: 'liquidity_pool_shares',
        asset_code: '',
        asset_issuer: '',
        liquidity_pool_id: poolId.toString('hex'),
        balance: 10000n,
        limit: 123456789n,
        buying_liabilities: 0n,
        selling_liabilities: 0n,
        flags: 0,
        last_modified_ledger: 5,
        sponsor: null,
      },
    ]);
    const key = xdr.LedgerKey.trustline(new xdr.LedgerKeyTrustLine({ accountId: Keypair.fromPublicKey(holder).xdrAccountId(), asset }));
    const removed = stateRows(view([xdr.LedgerEntryChange.ledgerEntryState(line), xdr.LedgerEntryChange.ledgerEntryRemoved(key)]));
    expect(removed.removedTrustLines).toEqual([
      { account_id: holder, asset_code: '', asset_issuer: '', liquidity_pool_id: poolId.toString('hex') },
    ]);
    expect(removed.trustLines).toEqual([]);
  });
});
