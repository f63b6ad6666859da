// `_links` derived from the route table: each type's links, in Horizon's order (JSON key order is
// what clients see), as the hand-written table had them.
import { describe, expect, it } from 'vitest';
import { restResource } from '../../../src/api/rest/resources.js';

const O = 'http://h';
const G = 'GBXGQJWVLWOYHFLVTKWV5FGHA3LNYY2JQKM7OAJAUEQFU6LPCSEFVXON';
const H = 'ab'.repeat(32);
const PAGE = '{?cursor,limit,order}';

/** the links as [name, href, templated] in key order */
function links(type: string, record: object): [string, string, boolean][] {
  const rendered = restResource(type, record, O)._links as Record<string, { href: string; templated?: true }>;
  return Object.entries(rendered).map(([name, link]) => [name, link.href, link.templated === true]);
}

describe('_links from the route table', () => {
  it('an account: self, the routes under its path, its data template', () => {
    const base = `${O}/accounts/${G}`;
    expect(links('Account', { accountId: G })).toEqual([
      ['self', base, false],
      ['transactions', `${base}/transactions${PAGE}`, true],
      ['operations', `${base}/operations${PAGE}`, true],
      ['payments', `${base}/payments${PAGE}`, true],
      ['effects', `${base}/effects${PAGE}`, true],
      ['offers', `${base}/offers${PAGE}`, true],
      ['trades', `${base}/trades${PAGE}`, true],
      ['data', `${base}/data/{key}`, true],
    ]);
  });

  it('a ledger: self and its lists', () => {
    const base = `${O}/ledgers/3`;
    expect(links('Ledger', { sequence: 3, hash: H })).toEqual([
      ['self', base, false],
      ['transactions', `${base}/transactions${PAGE}`, true],
      ['operations', `${base}/operations${PAGE}`, true],
      ['payments', `${base}/payments${PAGE}`, true],
      ['effects', `${base}/effects${PAGE}`, true],
    ]);
  });

  it('a transaction: its account and ledger, its lists but payments, its neighbours, itself', () => {
    const base = `${O}/transactions/${H}`;
    expect(links('Transaction', { hash: H, ledger: 3, sourceAccount: G, pagingToken: '12884905984' })).toEqual([
      ['self', base, false],
      ['account', `${O}/accounts/${G}`, false],
      ['ledger', `${O}/ledgers/3`, false],
      ['operations', `${base}/operations${PAGE}`, true],
      ['effects', `${base}/effects${PAGE}`, true],
      ['precedes', `${O}/transactions?order=asc&cursor=12884905984`, false],
      ['succeeds', `${O}/transactions?order=desc&cursor=12884905984`, false],
      ['transaction', base, false],
    ]);
  });

  it('an operation, an effect, a trade, an offer', () => {
    const op = `${O}/operations/12884905985`;
    expect(links('Operation', { pagingToken: '12884905985', transactionHash: H })).toEqual([
      ['self', op, false],
      ['transaction', `${O}/transactions/${H}`, false],
      ['effects', `${op}/effects${PAGE}`, true],
      ['succeeds', `${O}/operations?order=desc&cursor=12884905985`, false],
      ['precedes', `${O}/operations?order=asc&cursor=12884905985`, false],
    ]);
    expect(links('Effect', { pagingToken: '12884905985-2' })).toEqual([
      ['operation', op, false],
      ['succeeds', `${O}/effects?order=desc&cursor=12884905985-2`, false],
      ['precedes', `${O}/effects?order=asc&cursor=12884905985-2`, false],
    ]);
    // Horizon's populateTradeLinks: a side's account when it has an offer, else its pool, else an empty href
    expect(
      links('Trade', { pagingToken: '12884905985-1', baseAccount: G, baseOfferId: '7', counterAccount: G, counterOfferId: '8' }),
    ).toEqual([
      ['self', '', false],
      ['base', `${O}/accounts/${G}`, false],
      ['counter', `${O}/accounts/${G}`, false],
      ['operation', op, false],
    ]);
    expect(links('Trade', { pagingToken: '12884905985-1', baseLiquidityPoolId: 'ab', counterAccount: G })).toEqual([
      ['self', '', false],
      ['base', `${O}/liquidity_pools/ab`, false],
      ['counter', '', false],
      ['operation', op, false],
    ]);
    expect(links('Offer', { pagingToken: '7', seller: G })).toEqual([
      ['self', `${O}/offers/7`, false],
      ['offer_maker', `${O}/accounts/${G}`, false],
    ]);
  });
});
