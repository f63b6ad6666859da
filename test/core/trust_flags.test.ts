// clawback, set_trust_line_flags and allow_trust's shared apply, with the scenarios of
// stellar-core's ClawbackTests.cpp, SetTrustLineFlagsTests.cpp and AllowTrustTests.cpp.
import { describe, expect, it } from 'vitest';
import { Asset, type Keypair, Operation, type xdr } from '@stellar/stellar-sdk/base';
import { entryFromXdr } from '../../src/core/ledger/entries.js';
import { Harness, closeMetaV1, txMetaV3 } from './support/harness.js';
import { balanceOf, offersOf, pay, sellOffer, trust, trustLineOf } from './support/dex.js';
import {
  AUTHORIZED,
  AUTH_CLAWBACK_ENABLED,
  AUTH_IMMUTABLE,
  AUTH_REQUIRED,
  AUTH_REVOCABLE,
  MAINTAIN_LIABILITIES,
  TL_CLAWBACK_ENABLED,
  allowTrustOp,
  clawbackOp,
  invalidAssets,
  setTrustLineFlagsOp,
} from './support/trust_flags.js';

const XLM = Asset.native();
const INT64_MAX = 0x7fffffffffffffffn;
const setFlags = (f: number) => Operation.setOptions({ setFlags: f as never });
const clearFlags = (f: number) => Operation.setOptions({ clearFlags: f as never });

async function codes(h: Harness, source: Keypair, ops: xdr.Operation[]): Promise<string[]> {
  return (await h.run(source, ops)).ops;
}

/** An operation's entry changes in the last closed ledger, as `kind:type[:detail]`. */
function lastOpChanges(h: Harness, opIndex = 0): string[] {
  const tm = txMetaV3(closeMetaV1(h.core, h.core.latestLedger().sequence).txProcessing[0]!);
  return tm.operations[opIndex]!.changes.map((c) => {
    const kind = c.type.replace('ledgerEntry', '').toLowerCase();
    if (c.type === 'ledgerEntryRemoved') {
      const k = c.removed;
      return k.type === 'offer' ? `${kind}:offer:${k.offer.offerId}` : `${kind}:${k.type}`;
    }
    const e = entryFromXdr(c.value);
    switch (e.type) {
      case 'trustline': {
        const asset = e.asset.type === 'pool_share' ? e.asset.poolId.slice(0, 8) : e.asset.code;
        const liab = e.extLevel >= 1 ? `:${e.buyingLiabilities}/${e.sellingLiabilities}` : '';
        return `${kind}:trustline:${asset}:${e.balance}:${e.flags}${liab}`;
      }
      case 'account':
        return `${kind}:account:${e.accountId.slice(0, 4)}:${e.numSubEntries}`;
      case 'offer':
        return `${kind}:offer:${e.offerId}`;
      default:
        return `${kind}:${e.type}`;
    }
  });
}

const flagsOf = (h: Harness, kp: Keypair, asset: Asset): number => trustLineOf(h.core, kp, asset)?.flags ?? -1;

// ClawbackTests.cpp "from V17": the gateway has AUTH_CLAWBACK_ENABLED | AUTH_REVOCABLE, a1 holds 100 IDR
async function clawbackWorld() {
  const h = await Harness.create();
  const [a1, gateway] = await h.fund(100, 2);
  const idr = new Asset('IDR', gateway!.publicKey());
  await h.succeed(gateway!, [setFlags(AUTH_CLAWBACK_ENABLED | AUTH_REVOCABLE)]);
  await h.succeed(a1!, [trust(idr, 1000)]);
  await h.succeed(gateway!, [pay(a1!, idr, 100)]);
  return { h, a1: a1!, gateway: gateway!, idr };
}

describe('clawback (ClawbackTests)', () => {
  it('a line created under AUTH_CLAWBACK_ENABLED carries TRUSTLINE_CLAWBACK_ENABLED; basic clawback burns the amount', async () => {
    const { h, a1, gateway, idr } = await clawbackWorld();
    expect(flagsOf(h, a1, idr)).toBe(AUTHORIZED | TL_CLAWBACK_ENABLED);
    expect(await codes(h, gateway, [clawbackOp(a1, idr, 75)])).toEqual(['clawbackSuccess']);
    expect(balanceOf(h.core, a1, idr)).toBe(25n);
    // only the line is touched: the amount goes nowhere
    expect(lastOpChanges(h)).toEqual([`state:trustline:IDR:100:${AUTHORIZED | TL_CLAWBACK_ENABLED}`, `updated:trustline:IDR:25:5`]);
  });

  it('clawback after removing liabilities', async () => {
    const { h, a1, gateway, idr } = await clawbackWorld();
    await h.succeed(gateway, [setFlags(AUTH_REQUIRED)]);
    // clawback more than balance - liabilities (100 - 26)
    await h.succeed(a1, [sellOffer(idr, XLM, 26, 1, 1)]);
    expect(await codes(h, gateway, [clawbackOp(a1, idr, 75)])).toEqual(['clawbackUnderfunded']);
    expect(balanceOf(h.core, a1, idr)).toBe(100n);
    expect(await codes(h, gateway, [allowTrustOp(a1, 'IDR', 0)])).toEqual(['allowTrustSuccess']);
    expect(offersOf(h.core, a1)).toEqual([]);
    expect(await codes(h, gateway, [clawbackOp(a1, idr, 75)])).toEqual(['clawbackSuccess']);
    expect(balanceOf(h.core, a1, idr)).toBe(25n);
  });

  it('allow trust: a revoked line (0 or maintain liabilities) can be clawed back; allow_trust cannot set clawback', async () => {
    for (const authorize of [0, MAINTAIN_LIABILITIES]) {
      const { h, a1, gateway, idr } = await clawbackWorld();
      await h.succeed(gateway, [setFlags(AUTH_REQUIRED)]);
      expect(await codes(h, gateway, [allowTrustOp(a1, 'IDR', authorize)])).toEqual(['allowTrustSuccess']);
      expect(await codes(h, gateway, [clawbackOp(a1, idr, 75)])).toEqual(['clawbackSuccess']);
      expect(balanceOf(h.core, a1, idr)).toBe(25n);
    }
    const { h, a1, gateway } = await clawbackWorld();
    expect(await codes(h, gateway, [allowTrustOp(a1, 'IDR', TL_CLAWBACK_ENABLED)])).toEqual(['allowTrustMalformed']);
    // TRUSTLINE_CLAWBACK_ENABLED_FLAG was the reason
    expect(await codes(h, gateway, [allowTrustOp(a1, 'IDR', 0)])).toEqual(['allowTrustSuccess']);
  });

  it('clawback when the issuer already has INT64_MAX liabilities', async () => {
    const { h, a1, gateway, idr } = await clawbackWorld();
    const usd = new Asset('USD', gateway.publicKey());
    await h.succeed(gateway, [sellOffer(usd, idr, INT64_MAX, 1, 1)]);
    expect(await codes(h, gateway, [clawbackOp(a1, idr, 75)])).toEqual(['clawbackSuccess']);
  });

  it('set options: AUTH_CLAWBACK_ENABLED needs AUTH_REVOCABLE, and AUTH_IMMUTABLE freezes both', async () => {
    const { h, a1, gateway } = await clawbackWorld();
    // can't clear revocable while clawback is set
    expect(await codes(h, gateway, [clearFlags(AUTH_REVOCABLE)])).toEqual(['setOptionsAuthRevocableRequired']);
    // a1 is not revocable, so can't add clawback
    expect(await codes(h, a1, [setFlags(AUTH_CLAWBACK_ENABLED)])).toEqual(['setOptionsAuthRevocableRequired']);
    // both can be removed together
    expect(await codes(h, gateway, [clearFlags(AUTH_CLAWBACK_ENABLED | AUTH_REVOCABLE)])).toEqual(['setOptionsSuccess']);

    const w = await clawbackWorld();
    await w.h.succeed(w.gateway, [setFlags(AUTH_IMMUTABLE)]);
    expect(await codes(w.h, w.gateway, [setFlags(AUTH_CLAWBACK_ENABLED)])).toEqual(['setOptionsCantChange']);
    expect(await codes(w.h, w.gateway, [clearFlags(AUTH_CLAWBACK_ENABLED | AUTH_REVOCABLE)])).toEqual(['setOptionsCantChange']);
  });

  it('check validity: from self, amounts below 1, invalid and native assets, a source that is not the issuer', async () => {
    const { h, a1, gateway, idr } = await clawbackWorld();
    expect(await codes(h, gateway, [clawbackOp(gateway, idr, 75)])).toEqual(['clawbackMalformed']);
    expect(await codes(h, gateway, [clawbackOp(a1, idr, 0)])).toEqual(['clawbackMalformed']);
    expect(await codes(h, gateway, [clawbackOp(a1, idr, -1)])).toEqual(['clawbackMalformed']);
    for (const asset of invalidAssets(gateway.publicKey())) {
      expect(await codes(h, gateway, [clawbackOp(a1, asset, 75)])).toEqual(['clawbackMalformed']);
    }
    expect(await codes(h, gateway, [clawbackOp(a1, XLM, 75)])).toEqual(['clawbackMalformed']);
    expect(await codes(h, a1, [clawbackOp(gateway, idr, 75)])).toEqual(['clawbackMalformed']);
    // stellar-core compares the MuxedAccount: the issuer's muxed form passes and has no line
    expect(await codes(h, gateway, [clawbackOp(gateway, idr, 75, 7n)])).toEqual(['clawbackNoTrust']);
    // a muxed trustor is its account
    expect(await codes(h, gateway, [clawbackOp(a1, idr, 10, 7n)])).toEqual(['clawbackSuccess']);
    expect(balanceOf(h.core, a1, idr)).toBe(90n);
  });

  it('apply: no trust, not clawback enabled, underfunded', async () => {
    const { h, a1, gateway, idr } = await clawbackWorld();
    expect(await codes(h, gateway, [clawbackOp(h.root, idr, 75)])).toEqual(['clawbackNoTrust']);

    await h.succeed(gateway, [clearFlags(AUTH_CLAWBACK_ENABLED)]);
    await h.succeed(h.root, [trust(idr, 100)]);
    await h.succeed(gateway, [pay(h.root, idr, 100)]);
    expect(flagsOf(h, h.root, idr)).toBe(AUTHORIZED);
    expect(await codes(h, gateway, [clawbackOp(h.root, idr, 75)])).toEqual(['clawbackNotClawbackEnabled']);
    expect(balanceOf(h.core, h.root, idr)).toBe(100n);

    // more than the balance, then more than balance - liabilities (100 - 26)
    expect(await codes(h, gateway, [clawbackOp(a1, idr, 101)])).toEqual(['clawbackUnderfunded']);
    await h.succeed(a1, [sellOffer(idr, XLM, 26, 1, 1)]);
    expect(await codes(h, gateway, [clawbackOp(a1, idr, 75)])).toEqual(['clawbackUnderfunded']);
    expect(balanceOf(h.core, a1, idr)).toBe(100n);
    // as much as possible
    expect(await codes(h, gateway, [clawbackOp(a1, idr, 74)])).toEqual(['clawbackSuccess']);
    expect(balanceOf(h.core, a1, idr)).toBe(26n);
  });

  it('thresholds: clawback needs medium, set_trust_line_flags and allow_trust low', async () => {
    const { h, a1, gateway, idr } = await clawbackWorld();
    await h.succeed(gateway, [Operation.setOptions({ masterWeight: 1, lowThreshold: 1, medThreshold: 2, highThreshold: 2 })]);
    expect(await h.run(gateway, [clawbackOp(a1, idr, 1)])).toMatchObject({ code: 'txFailed', ops: ['opBadAuth'] });
    expect(await codes(h, gateway, [setTrustLineFlagsOp(a1, idr, 0, 0)])).toEqual(['setTrustLineFlagsSuccess']);
    expect(await codes(h, gateway, [allowTrustOp(a1, 'IDR', AUTHORIZED)])).toEqual(['allowTrustSuccess']);
  });
});

// SetTrustLineFlagsTests.cpp "set trustline flags": the gateway is revocable (not auth required),
// a1's line is authorized
async function flagsWorld() {
  const h = await Harness.create();
  const [gateway, a1, a2] = await h.fund(100, 3);
  const idr = new Asset('IDR', gateway!.publicKey());
  await h.succeed(gateway!, [setFlags(AUTH_REVOCABLE)]);
  await h.succeed(a1!, [trust(idr)]);
  return { h, gateway: gateway!, a1: a1!, a2: a2!, idr };
}

const stlf = setTrustLineFlagsOp;

describe('set_trust_line_flags (SetTrustLineFlagsTests)', () => {
  it('small test: to maintain liabilities keeps the offers and stops payments', async () => {
    const { h, gateway, a1, idr } = await flagsWorld();
    await h.succeed(gateway, [pay(a1, idr, 5)]);
    await h.succeed(a1, [pay(gateway, idr, 1)]);
    await h.succeed(a1, [sellOffer(XLM, idr, 1, 1, 1)]);
    const offers = offersOf(h.core, a1);
    expect(await codes(h, gateway, [stlf(a1, idr, MAINTAIN_LIABILITIES, AUTHORIZED)])).toEqual(['setTrustLineFlagsSuccess']);
    expect(offersOf(h.core, a1)).toEqual(offers);
    expect(flagsOf(h, a1, idr)).toBe(MAINTAIN_LIABILITIES);
    expect(await codes(h, a1, [pay(gateway, idr, 20000)])).toEqual(['paymentSrcNotAuthorized']);
  });

  it('empty flags: a no-op that still loads the line', async () => {
    const { h, gateway, a1, idr } = await flagsWorld();
    const before = flagsOf(h, a1, idr);
    expect(await codes(h, gateway, [stlf(a1, idr, 0, 0)])).toEqual(['setTrustLineFlagsSuccess']);
    expect(flagsOf(h, a1, idr)).toBe(before);
    expect(lastOpChanges(h)).toEqual([`state:trustline:IDR:0:${AUTHORIZED}`, `updated:trustline:IDR:0:${AUTHORIZED}`]);
  });

  it('clear clawback', async () => {
    const { h, gateway, a2, idr } = await flagsWorld();
    await h.succeed(gateway, [setFlags(AUTH_CLAWBACK_ENABLED)]);
    await h.succeed(a2, [trust(idr)]);
    await h.succeed(gateway, [pay(a2, idr, 100)]);
    expect(await codes(h, gateway, [clawbackOp(a2, idr, 25)])).toEqual(['clawbackSuccess']);
    expect(await codes(h, gateway, [stlf(a2, idr, 0, TL_CLAWBACK_ENABLED)])).toEqual(['setTrustLineFlagsSuccess']);
    expect(flagsOf(h, a2, idr)).toBe(AUTHORIZED);
    expect(await codes(h, gateway, [clawbackOp(a2, idr, 25)])).toEqual(['clawbackNotClawbackEnabled']);
  });

  it('upgrade auth when not revocable', async () => {
    {
      // authorized -> maintain liabilities (offer kept) -> authorized, no longer revocable
      const { h, gateway, a1, idr } = await flagsWorld();
      await h.succeed(a1, [sellOffer(XLM, idr, 1, 1, 1)]);
      expect(await codes(h, gateway, [stlf(a1, idr, MAINTAIN_LIABILITIES, AUTHORIZED)])).toEqual(['setTrustLineFlagsSuccess']);
      expect(offersOf(h.core, a1)).toHaveLength(1);
      await h.succeed(gateway, [clearFlags(AUTH_REVOCABLE)]);
      expect(await codes(h, gateway, [stlf(a1, idr, AUTHORIZED, MAINTAIN_LIABILITIES)])).toEqual(['setTrustLineFlagsSuccess']);
      expect(offersOf(h.core, a1)).toHaveLength(1);
    }
    for (const target of [AUTHORIZED, MAINTAIN_LIABILITIES]) {
      // 0 -> authorized, 0 -> maintain liabilities
      const { h, gateway, a1, idr } = await flagsWorld();
      await h.succeed(gateway, [stlf(a1, idr, 0, AUTHORIZED | MAINTAIN_LIABILITIES)]);
      await h.succeed(gateway, [clearFlags(AUTH_REVOCABLE)]);
      expect(await codes(h, gateway, [stlf(a1, idr, target, 0)])).toEqual(['setTrustLineFlagsSuccess']);
      expect(flagsOf(h, a1, idr)).toBe(target);
    }
  });

  it('invalid state: both authorization flags would be set', async () => {
    const { h, gateway, a2, idr } = await flagsWorld();
    await h.succeed(gateway, [setFlags(AUTH_REQUIRED)]);
    await h.succeed(a2, [trust(idr)]);
    await h.succeed(gateway, [stlf(a2, idr, AUTHORIZED, 0)]);
    expect(await codes(h, gateway, [stlf(a2, idr, MAINTAIN_LIABILITIES, 0)])).toEqual(['setTrustLineFlagsInvalidState']);
    await h.succeed(gateway, [stlf(a2, idr, MAINTAIN_LIABILITIES, AUTHORIZED)]);
    expect(await codes(h, gateway, [stlf(a2, idr, AUTHORIZED, 0)])).toEqual(['setTrustLineFlagsInvalidState']);
  });

  it("can't revoke without AUTH_REVOCABLE: authorized -> 0, maintain liabilities -> 0", async () => {
    {
      const { h, gateway, a1, idr } = await flagsWorld();
      await h.succeed(gateway, [clearFlags(AUTH_REVOCABLE)]);
      expect(await codes(h, gateway, [stlf(a1, idr, 0, AUTHORIZED)])).toEqual(['setTrustLineFlagsCantRevoke']);
    }
    const { h, gateway, a1, idr } = await flagsWorld();
    await h.succeed(gateway, [stlf(a1, idr, MAINTAIN_LIABILITIES, AUTHORIZED)]);
    await h.succeed(gateway, [clearFlags(AUTH_REVOCABLE)]);
    expect(await codes(h, gateway, [stlf(a1, idr, 0, MAINTAIN_LIABILITIES)])).toEqual(['setTrustLineFlagsCantRevoke']);
  });

  it('no trust line', async () => {
    const { h, gateway, a2, idr } = await flagsWorld();
    expect(await codes(h, gateway, [stlf(a2, idr, 0, 0)])).toEqual(['setTrustLineFlagsNoTrustLine']);
  });

  it('malformed', async () => {
    const { h, gateway, a1, idr } = await flagsWorld();
    const malformed = async (source: Keypair, o: xdr.Operation) =>
      expect(await codes(h, source, [o])).toEqual(['setTrustLineFlagsMalformed']);
    await malformed(gateway, stlf(a1, idr, AUTHORIZED | MAINTAIN_LIABILITIES, 0)); // invalid auth flags
    await malformed(gateway, stlf(a1, idr, TL_CLAWBACK_ENABLED, 0)); // can't set clawback
    await malformed(gateway, stlf(a1, XLM, 0, 0));
    for (const asset of invalidAssets(gateway.publicKey())) await malformed(gateway, stlf(a1, asset, 0, 0));
    // set and clear can't overlap
    await malformed(gateway, stlf(a1, idr, AUTHORIZED, AUTHORIZED | MAINTAIN_LIABILITIES));
    await malformed(gateway, stlf(a1, idr, AUTHORIZED, AUTHORIZED));
    // unsupported flags (MASK_TRUSTLINE_FLAGS_V17 + 1)
    await malformed(gateway, stlf(a1, idr, 8, 0));
    await malformed(gateway, stlf(a1, idr, 0, 8));
    await malformed(gateway, stlf(gateway, idr, 0, 0)); // on self
    await malformed(a1, stlf(gateway, idr, 0, 0)); // source is not the issuer
  });
});

// AllowTrustTests.cpp testAuthorizedToMaintainLiabilities, for both operations: a1 sells USD for
// IDR; a line dropping to maintain liabilities keeps the offer, losing authorization removes it
describe('revocation removes offers (AllowTrustTests, both operations)', () => {
  async function world() {
    const h = await Harness.create();
    const [gateway, a1, a2] = await h.fund(100, 3);
    const usd = new Asset('USD', gateway!.publicKey());
    const idr = new Asset('IDR', gateway!.publicKey());
    await h.succeed(gateway!, [setFlags(AUTH_REQUIRED | AUTH_REVOCABLE)]);
    await h.succeed(a1!, [trust(usd), trust(idr)]);
    await h.succeed(gateway!, [allowTrustOp(a1!, 'USD', AUTHORIZED), allowTrustOp(a1!, 'IDR', AUTHORIZED)]);
    await h.succeed(gateway!, [pay(a1!, usd, 20000), pay(a1!, idr, 20000)]);
    await h.succeed(a1!, [sellOffer(usd, idr, 1000, 1, 1)]);
    return { h, gateway: gateway!, a1: a1!, a2: a2!, usd, idr };
  }
  type W = Awaited<ReturnType<typeof world>>;
  const variants: [string, (w: W, a: Asset) => xdr.Operation, (w: W, a: Asset) => xdr.Operation][] = [
    ['allow_trust', (w, a) => allowTrustOp(w.a1, a.getCode(), MAINTAIN_LIABILITIES), (w, a) => allowTrustOp(w.a1, a.getCode(), 0)],
    [
      'set_trust_line_flags',
      (w, a) => stlf(w.a1, a, MAINTAIN_LIABILITIES, AUTHORIZED),
      (w, a) => stlf(w.a1, a, 0, AUTHORIZED | MAINTAIN_LIABILITIES),
    ],
  ];

  for (const [name, maintain, deny] of variants) {
    it(`${name}: maintain liabilities keeps the offer, deny on the buying or selling asset removes it (meta)`, async () => {
      for (const [maintained, denied] of [
        ['idr', 'idr'],
        ['idr', 'usd'],
        ['usd', 'idr'],
      ] as const) {
        const w = await world();
        const { h, gateway, a1 } = w;
        const [offer] = offersOf(h.core, a1);
        expect(offer).toBeDefined();
        await h.succeed(gateway, [maintain(w, w[maintained])]);
        expect(offersOf(h.core, a1)).toEqual([offer]);
        // can't add an offer now
        const code = maintained === 'idr' ? 'manageSellOfferBuyNotAuthorized' : 'manageSellOfferSellNotAuthorized';
        expect(await codes(h, a1, [sellOffer(w.usd, w.idr, 1000, 1, 1)])).toEqual([code]);
        await h.succeed(gateway, [deny(w, w[denied])]);
        expect(offersOf(h.core, a1)).toEqual([]);
        const flagBefore = (asset: 'usd' | 'idr') => (asset === maintained ? MAINTAIN_LIABILITIES : AUTHORIZED);
        const flagAfter = (asset: 'usd' | 'idr') => (asset === denied ? 0 : flagBefore(asset));
        // the offer goes with its liabilities (1000 USD selling, 1000 IDR buying) and its subentry
        const id = a1.publicKey().slice(0, 4);
        expect(lastOpChanges(h).sort()).toEqual(
          [
            `state:offer:${offer!.offerId}`,
            `removed:offer:${offer!.offerId}`,
            `state:account:${id}:3`,
            `updated:account:${id}:2`,
            `state:trustline:USD:20000:${flagBefore('usd')}:0/1000`,
            `updated:trustline:USD:20000:${flagAfter('usd')}:0/0`,
            `state:trustline:IDR:20000:${flagBefore('idr')}:1000/0`,
            `updated:trustline:IDR:20000:${flagAfter('idr')}:0/0`,
          ].sort(),
        );
      }
    });

    it(`${name}: auth transitions refused without AUTH_REVOCABLE`, async () => {
      const h = await Harness.create();
      const [issuer, a3] = await h.fund(100, 2);
      const iss = new Asset('iss', issuer!.publicKey());
      await h.succeed(issuer!, [setFlags(AUTH_REQUIRED)]);
      await h.succeed(a3!, [trust(iss)]);
      const w = { a1: a3! } as W;
      const cantRevoke = name === 'allow_trust' ? 'allowTrustCantRevoke' : 'setTrustLineFlagsCantRevoke';
      // authorized -> maintain liabilities
      await h.succeed(issuer!, [allowTrustOp(a3!, 'iss', AUTHORIZED)]);
      expect(await codes(h, issuer!, [maintain(w, iss)])).toEqual([cantRevoke]);
      // maintain liabilities -> not authorized (the line starts over at maintain liabilities)
      const h2 = await Harness.create();
      const [issuer2, b3] = await h2.fund(100, 2);
      const iss2 = new Asset('iss', issuer2!.publicKey());
      await h2.succeed(issuer2!, [setFlags(AUTH_REQUIRED)]);
      await h2.succeed(b3!, [trust(iss2)]);
      await h2.succeed(issuer2!, [allowTrustOp(b3!, 'iss', MAINTAIN_LIABILITIES)]);
      expect(await codes(h2, issuer2!, [deny({ a1: b3! } as W, iss2)])).toEqual([cantRevoke]);
    });
  }
});

// AllowTrustTests.cpp testAllowTrust from protocol 16, for both operations (TestAccount's
// allowTrust, denyTrust and allowMaintainLiabilities in their set_trust_line_flags form)
describe.each([
  {
    name: 'allow_trust',
    allow: (t: Keypair, a: Asset) => allowTrustOp(t, a.getCode(), AUTHORIZED),
    deny: (t: Keypair, a: Asset) => allowTrustOp(t, a.getCode(), 0),
    maintain: (t: Keypair, a: Asset) => allowTrustOp(t, a.getCode(), MAINTAIN_LIABILITIES),
    code: (c: string) => `allowTrust${c}`,
  },
  {
    name: 'set_trust_line_flags',
    allow: (t: Keypair, a: Asset) => stlf(t, a, AUTHORIZED, MAINTAIN_LIABILITIES),
    deny: (t: Keypair, a: Asset) => stlf(t, a, 0, AUTHORIZED | MAINTAIN_LIABILITIES),
    maintain: (t: Keypair, a: Asset) => stlf(t, a, MAINTAIN_LIABILITIES, AUTHORIZED),
    code: (c: string) => `setTrustLineFlags${c}`,
  },
])('$name (AllowTrustTests)', ({ allow, deny, maintain, code }) => {
  async function world() {
    const h = await Harness.create();
    const [gateway, a1] = (await h.fund(100, 2)) as [Keypair, Keypair];
    return { h, gateway, a1, idr: new Asset('IDR', gateway.publicKey()) };
  }

  it('not required, no line: authorizing finds no line, revoking is refused first', async () => {
    const { h, gateway, a1, idr } = await world();
    expect(await codes(h, gateway, [allow(a1, idr)])).toEqual([code('NoTrustLine')]);
    expect(await codes(h, gateway, [deny(a1, idr)])).toEqual([code('CantRevoke')]);
    // with AUTH_REVOCABLE the missing line is the answer
    await h.succeed(gateway, [setFlags(AUTH_REVOCABLE)]);
    expect(await codes(h, gateway, [allow(a1, idr)])).toEqual([code('NoTrustLine')]);
    expect(await codes(h, gateway, [deny(a1, idr)])).toEqual([code('NoTrustLine')]);
  });

  it('authorize after AUTH_REQUIRED was cleared; revoke without AUTH_REQUIRED', async () => {
    const { h, gateway, a1, idr } = await world();
    await h.succeed(gateway, [setFlags(AUTH_REQUIRED)]);
    await h.succeed(a1, [trust(idr)]);
    await h.succeed(gateway, [clearFlags(AUTH_REQUIRED)]);
    expect(flagsOf(h, a1, idr)).toBe(0);
    await h.succeed(gateway, [allow(a1, idr)]);
    await h.succeed(gateway, [pay(a1, idr, 1)]);
    await h.succeed(gateway, [setFlags(AUTH_REVOCABLE)]);
    await h.succeed(gateway, [deny(a1, idr)]);
    expect(flagsOf(h, a1, idr)).toBe(0);
  });

  it('required: payments need authorization, revoking needs AUTH_REVOCABLE', async () => {
    const { h, gateway, a1, idr } = await world();
    await h.succeed(gateway, [setFlags(AUTH_REQUIRED)]);
    await h.succeed(a1, [trust(idr)]);
    expect(await codes(h, gateway, [pay(a1, idr, 20000)])).toEqual(['paymentNotAuthorized']);
    await h.succeed(gateway, [allow(a1, idr)]);
    await h.succeed(gateway, [pay(a1, idr, 20000)]);
    expect(await codes(h, gateway, [deny(a1, idr)])).toEqual([code('CantRevoke')]);
    await h.succeed(gateway, [setFlags(AUTH_REVOCABLE)]);
    await h.succeed(gateway, [deny(a1, idr)]);
    expect(await codes(h, a1, [pay(gateway, idr, 20000)])).toEqual(['paymentSrcNotAuthorized']);
    await h.succeed(gateway, [allow(a1, idr)]);
    await h.succeed(a1, [pay(gateway, idr, 20000)]);
  });

  it('on the issuer itself: malformed', async () => {
    const { h, gateway, idr } = await world();
    await h.succeed(gateway, [setFlags(AUTH_REQUIRED | AUTH_REVOCABLE)]);
    expect(await codes(h, gateway, [allow(gateway, idr)])).toEqual([code('Malformed')]);
    expect(await codes(h, gateway, [deny(gateway, idr)])).toEqual([code('Malformed')]);
  });

  it('offers: removed when their buying or selling asset is revoked, kept for other assets', async () => {
    const { h, gateway, a1, idr } = await world();
    const [cur1, cur2] = [new Asset('CUR1', gateway.publicKey()), new Asset('CUR2', gateway.publicKey())];
    await h.succeed(gateway, [setFlags(AUTH_REQUIRED | AUTH_REVOCABLE)]);
    await h.succeed(a1, [trust(idr), trust(cur1), trust(cur2)]);
    await h.succeed(gateway, [allow(a1, idr), allow(a1, cur1), allow(a1, cur2), pay(a1, idr, 20000), pay(a1, cur1, 20000)]);
    // apart in price, so they do not cross
    await h.succeed(a1, [sellOffer(XLM, idr, 1000, 1, 1), sellOffer(idr, XLM, 1000, 2, 1), sellOffer(cur1, cur2, 1000, 1, 1)]);
    const [buying, selling, other] = offersOf(h.core, a1);
    await h.succeed(gateway, [deny(a1, idr)]);
    expect(offersOf(h.core, a1)).toEqual([other]);
    expect(lastOpChanges(h)).toEqual(expect.arrayContaining([`removed:offer:${buying!.offerId}`, `removed:offer:${selling!.offerId}`]));
  });

  it('with clawback: revocation removes offers, and every auth change keeps TRUSTLINE_CLAWBACK_ENABLED', async () => {
    const { h, gateway, a1, idr } = await world();
    await h.succeed(gateway, [setFlags(AUTH_CLAWBACK_ENABLED | AUTH_REVOCABLE)]);
    await h.succeed(a1, [trust(idr)]);
    await h.succeed(a1, [sellOffer(XLM, idr, 1, 1, 1)]);
    await h.succeed(gateway, [deny(a1, idr)]);
    expect(offersOf(h.core, a1)).toEqual([]);
    expect(flagsOf(h, a1, idr)).toBe(TL_CLAWBACK_ENABLED);
    await h.succeed(gateway, [maintain(a1, idr)]);
    expect(flagsOf(h, a1, idr)).toBe(MAINTAIN_LIABILITIES | TL_CLAWBACK_ENABLED);
    await h.succeed(gateway, [deny(a1, idr)]);
    expect(flagsOf(h, a1, idr)).toBe(TL_CLAWBACK_ENABLED);
    await h.succeed(gateway, [allow(a1, idr)]);
    expect(flagsOf(h, a1, idr)).toBe(AUTHORIZED | TL_CLAWBACK_ENABLED);
  });
});
