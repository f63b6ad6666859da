// The explorer's search box (web/explorer/src/search.ts): each kind of key, made by the SDK, leads
// to its view; anything else is a message naming what is wrong, never a request.
import { Account, Keypair, MuxedAccount } from '@stellar/stellar-sdk';
import { describe, expect, it } from 'vitest';
import { assetInput, classify } from '../../web/explorer/src/search.js';

const account = Keypair.random().publicKey();
const muxed = new MuxedAccount(new Account(account, '0'), '42').accountId();

describe('classify', () => {
  it('finds each kind of key', () => {
    expect(classify(account)).toEqual({ kind: 'account', id: account });
    expect(classify(` ${account.toLowerCase()} `)).toEqual({ kind: 'account', id: account });
    expect(classify(muxed)).toEqual({ kind: 'muxed', id: muxed });
    expect(classify('AB'.repeat(32))).toEqual({ kind: 'transaction', hash: 'ab'.repeat(32) });
    expect(classify('1')).toEqual({ kind: 'ledger', sequence: '1' });
    expect(classify('2147483647')).toEqual({ kind: 'ledger', sequence: '2147483647' });
    // beyond any ledger: a TOID
    expect(classify('2147483648')).toEqual({ kind: 'operation', id: '2147483648' });
    expect(classify('USD')).toEqual({ kind: 'asset', code: 'USD', issuer: '' });
    expect(classify('yXLM')).toEqual({ kind: 'asset', code: 'yXLM', issuer: '' });
    expect(classify(`LONGCODE1234:${account}`)).toEqual({ kind: 'asset', code: 'LONGCODE1234', issuer: account });
  });

  it('says what is wrong with anything else', () => {
    const cases: [string, RegExp][] = [
      ['', /^Type an account id/],
      ['   ', /^Type an account id/],
      [account.slice(0, 30), /is not a valid account id: it has 56 characters/],
      [`${account}A`, /is not a valid account id: it has 56 characters/],
      [muxed.slice(0, 60), /is not a valid muxed account: it has 69 characters/],
      [`G${'1'.repeat(55)}`, /is not a valid account id: G followed by 55 of A–Z and 2–7/],
      ['ab'.repeat(20), /is not a valid transaction hash/],
      ['0', /ledgers start at 1/],
      ['99999999999999999999', /too large/],
      ['USD:GABC', /its issuer is an account id/],
      [`TOOLONGCODE12X:${account}`, /its code is 1 to 12 letters and digits/],
      ['hello world', /is not an account id \(G…\), a muxed account/],
      ['$$', /is not an account id/],
    ];
    for (const [input, message] of cases) {
      const found = classify(input);
      expect(found.kind, input).toBe('invalid');
      expect(found.kind === 'invalid' ? found.message : '', input).toMatch(message);
    }
  });
});

describe('assetInput', () => {
  it("is GraphQL's AssetInput of native, XLM or CODE:ISSUER", () => {
    expect(assetInput('native')).toEqual({ assetType: 'native' });
    expect(assetInput('xlm')).toEqual({ assetType: 'native' });
    expect(assetInput(`USD:${account}`)).toEqual({ assetType: 'credit_alphanum4', assetCode: 'USD', assetIssuer: account });
    expect(assetInput(`USDC5:${account}`)).toEqual({ assetType: 'credit_alphanum12', assetCode: 'USDC5', assetIssuer: account });
  });

  it('says why anything else is none', () => {
    for (const input of ['USD', '', `USD:${account.slice(1)}`, account]) {
      expect(assetInput(input), input).toEqual({ invalid: expect.stringMatching(/is not an asset: write native/) });
    }
  });
});
