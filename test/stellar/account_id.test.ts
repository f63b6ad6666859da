import { Keypair, StrKey, encodeMuxedAccount, xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import {
  InvalidValueError,
  baseAccountId,
  formatMuxedAccountId,
  isAccountId,
  isMuxedAccountId,
  accountIdFromXdr,
  accountIdKey,
  accountIdToXdr,
  encodeAccountId,
  encodeAccountIdAt,
  muxedAccountBase,
  muxedAccountFromXdr,
  parseAccountId,
  parseMuxedAccountId,
} from '../../src/stellar/index.js';

// The root account of Horizon's test scenarios, and its key bytes.
const ROOT = 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H';
const SECRET = Keypair.random().secret();
// A known muxed address from SEP-23: base GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ, id 0.
const SEP23_BASE = 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ';
const SEP23_MUXED_0 = 'MA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJUAAAAAAAAAAAACJUQ';
const UINT64_MAX = 18446744073709551615n;

const badStrkeys = [
  '',
  ' ',
  'G',
  ROOT.toLowerCase(),
  ` ${ROOT}`,
  `${ROOT} `,
  ROOT.slice(0, -1),
  `${ROOT}A`,
  ROOT.slice(0, -1) + (ROOT.endsWith('H') ? 'A' : 'H'), // checksum broken
  SECRET,
  'not an account',
];

describe('isAccountId / isMuxedAccountId', () => {
  it('recognises G and M addresses and nothing else', () => {
    expect(isAccountId(ROOT)).toBe(true);
    expect(isMuxedAccountId(ROOT)).toBe(false);
    expect(isMuxedAccountId(SEP23_MUXED_0)).toBe(true);
    expect(isAccountId(SEP23_MUXED_0)).toBe(false);
    for (const text of badStrkeys) {
      expect(isAccountId(text), text).toBe(false);
      expect(isMuxedAccountId(text), text).toBe(false);
    }
  });
});

describe('parseAccountId', () => {
  it('returns a valid G address unchanged', () => {
    expect(parseAccountId(ROOT)).toBe(ROOT);
  });

  it.each(badStrkeys)('rejects %j', (text) => {
    expect(() => parseAccountId(text)).toThrow(InvalidValueError);
  });

  it('rejects muxed addresses with a message saying so', () => {
    expect(() => parseAccountId(SEP23_MUXED_0)).toThrow(/muxed/);
  });
});

describe('muxed accounts', () => {
  it('splits the SEP-23 example', () => {
    expect(parseMuxedAccountId(SEP23_MUXED_0)).toEqual({ accountId: SEP23_BASE, id: 0n });
    expect(baseAccountId(SEP23_MUXED_0)).toBe(SEP23_BASE);
  });

  it('builds M addresses and round-trips ids up to 2^64-1', () => {
    expect(formatMuxedAccountId(SEP23_BASE, 0n)).toBe(SEP23_MUXED_0);
    for (const id of [0n, 1n, 420n, 2n ** 63n, UINT64_MAX]) {
      const muxed = formatMuxedAccountId(ROOT, id);
      expect(muxed.startsWith('M')).toBe(true);
      expect(parseMuxedAccountId(muxed)).toEqual({ accountId: ROOT, id });
      expect(baseAccountId(muxed)).toBe(ROOT);
    }
  });

  it('rejects bad ids and bad base accounts', () => {
    expect(() => formatMuxedAccountId(ROOT, -1n)).toThrow(InvalidValueError);
    expect(() => formatMuxedAccountId(ROOT, UINT64_MAX + 1n)).toThrow(InvalidValueError);
    expect(() => formatMuxedAccountId(SEP23_MUXED_0, 1n)).toThrow(InvalidValueError);
  });

  it('rejects non-M input to parseMuxedAccountId and junk to baseAccountId', () => {
    expect(() => parseMuxedAccountId(ROOT)).toThrow(InvalidValueError);
    expect(() => parseMuxedAccountId(SEP23_MUXED_0.slice(0, -1))).toThrow(InvalidValueError);
    expect(baseAccountId(ROOT)).toBe(ROOT);
    for (const text of badStrkeys) expect(() => baseAccountId(text)).toThrow(InvalidValueError);
  });

  it('decodes xdr.MuxedAccount as Horizon renders it', () => {
    const plain = xdr.MuxedAccount.keyTypeEd25519(StrKey.decodeEd25519PublicKey(ROOT));
    expect(muxedAccountFromXdr(plain)).toEqual({ accountId: ROOT, muxedAddress: null, muxedId: null });

    const muxed = encodeMuxedAccount(ROOT, '18446744073709551615');
    expect(muxedAccountFromXdr(muxed)).toEqual({
      accountId: ROOT,
      muxedAddress: formatMuxedAccountId(ROOT, UINT64_MAX),
      muxedId: UINT64_MAX,
    });
  });

  it('encodes and decodes raw keys and XDR account ids, from a cache that gives the same answers', () => {
    const key = Buffer.from(StrKey.decodeEd25519PublicKey(ROOT));
    for (let i = 0; i < 2; i++) {
      expect(encodeAccountId(key)).toBe(ROOT);
      expect(encodeAccountIdAt(Buffer.concat([Buffer.alloc(3), key, Buffer.alloc(5)]), 3)).toBe(ROOT);
      expect(accountIdKey(ROOT).equals(key)).toBe(true);
      expect(Buffer.from(accountIdToXdr(ROOT).toXdr()).equals(xdr.PublicKey.publicKeyTypeEd25519(key).toXdr())).toBe(true);
      expect(accountIdFromXdr(xdr.PublicKey.publicKeyTypeEd25519(key))).toBe(ROOT);
    }
    const random = Keypair.random();
    expect(encodeAccountId(random.rawPublicKey())).toBe(random.publicKey());
  });

  it('gives the base account of an XDR MuxedAccount', () => {
    expect(muxedAccountBase(xdr.MuxedAccount.keyTypeEd25519(StrKey.decodeEd25519PublicKey(ROOT)))).toBe(ROOT);
    expect(muxedAccountBase(encodeMuxedAccount(ROOT, '420'))).toBe(ROOT);
  });
});
