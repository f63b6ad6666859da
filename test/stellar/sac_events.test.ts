// Horizon's TestStellarAssetContractEventParsing (stellar-horizon internal/ingest/contractevents/
// events_test.go): the same events (its random issuer and account fixed here) read by
// parseSacEvent; where Horizon returns an error, the event is not a SAC event (null).
import { StrKey, xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { NATIVE_ASSET, creditAsset, networkId, parseSacEvent, type SacEvent } from '../../src/stellar/index.js';
import { address, assetTopic, bigAmount, contractEvent, contractId, symbol, v4MapData } from '../support/sac_events.js';

const passphrase = 'passphrase';
const issuer = 'GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD';
const randomAccount = 'GAUJETIZVEP2NRYLUESJ3LS66NVCEGMON4UDCBCSBEVPIID773P2W6AY';
const zeroContract = StrKey.encodeContract(Buffer.alloc(32));
const randomAsset = () =>
  xdr.Asset.assetTypeCreditAlphanum12(
    new xdr.AlphaNum12({
      assetCode: Buffer.from('TESTING\0\0\0\0\0', 'latin1'),
      issuer: xdr.PublicKey.publicKeyTypeEd25519(StrKey.decodeEd25519PublicKey(issuer)),
    }),
  );
const TESTING = creditAsset('TESTING', issuer);

interface Case {
  name: string;
  version: number;
  topics: xdr.ScVal[];
  data: xdr.ScVal;
  contract?: Buffer;
  expected: SacEvent | null;
}

const u64 = (n: number) => xdr.ScVal.scvU64(xdr.Uint64.fromString(String(n)));
const transferTopics = () => [symbol('transfer'), address(randomAccount), address(zeroContract), assetTopic(randomAsset())];
const event = (type: SacEvent['type'], fields: Partial<SacEvent>): SacEvent => ({
  type,
  asset: TESTING,
  from: null,
  to: null,
  amount: 0n,
  toMuxedId: null,
  ...fields,
});

const cases: Case[] = [
  // valid v3 events
  {
    name: 'Valid V3 transfer event',
    version: 3,
    topics: transferTopics(),
    data: bigAmount(1000n),
    expected: event('transfer', { from: randomAccount, to: zeroContract, amount: 1000n }),
  },
  {
    name: 'Valid V3 mint event with admin address',
    version: 3,
    topics: [symbol('mint'), address(randomAccount), address(zeroContract), assetTopic(randomAsset())],
    data: bigAmount(2000n),
    expected: event('mint', { to: zeroContract, amount: 2000n }),
  },
  {
    name: 'Valid V3 clawback event with admin address',
    version: 3,
    topics: [symbol('clawback'), address(randomAccount), address(zeroContract), assetTopic(randomAsset())],
    data: bigAmount(3000n),
    expected: event('clawback', { from: zeroContract, amount: 3000n }),
  },
  {
    name: 'Valid V3 burn event',
    version: 3,
    topics: [symbol('burn'), address(randomAccount), assetTopic(randomAsset())],
    data: bigAmount(4000n),
    expected: event('burn', { from: randomAccount, amount: 4000n }),
  },
  {
    name: 'Valid V3 transfer with native asset',
    version: 3,
    topics: [symbol('transfer'), address(randomAccount), address(zeroContract), assetTopic(xdr.Asset.assetTypeNative())],
    data: bigAmount(5000n),
    contract: contractId(xdr.Asset.assetTypeNative(), passphrase),
    expected: { ...event('transfer', { from: randomAccount, to: zeroContract, amount: 5000n }), asset: NATIVE_ASSET },
  },
  // valid v4 events
  {
    name: 'Valid V4 transfer event (same as V3)',
    version: 4,
    topics: transferTopics(),
    data: bigAmount(1000n),
    expected: event('transfer', { from: randomAccount, to: zeroContract, amount: 1000n }),
  },
  {
    name: 'Valid V4 mint event without admin address',
    version: 4,
    topics: [symbol('mint'), address(zeroContract), assetTopic(randomAsset())],
    data: bigAmount(2000n),
    expected: event('mint', { to: zeroContract, amount: 2000n }),
  },
  {
    name: 'Valid V4 clawback event without admin address',
    version: 4,
    topics: [symbol('clawback'), address(zeroContract), assetTopic(randomAsset())],
    data: bigAmount(3000n),
    expected: event('clawback', { from: zeroContract, amount: 3000n }),
  },
  {
    name: 'Valid V4 burn event (same as V3)',
    version: 4,
    topics: [symbol('burn'), address(randomAccount), assetTopic(randomAsset())],
    data: bigAmount(4000n),
    expected: event('burn', { from: randomAccount, amount: 4000n }),
  },
  {
    name: 'Valid V4 transfer with uint64 memo',
    version: 4,
    topics: transferTopics(),
    data: v4MapData(1000n, u64(12345)),
    expected: event('transfer', { from: randomAccount, to: zeroContract, amount: 1000n, toMuxedId: 12345n }),
  },
  {
    name: 'V4 SAC event rejects ScvString for to_muxed_id',
    version: 4,
    topics: transferTopics(),
    data: v4MapData(1000n, xdr.ScVal.scvString('hello')),
    expected: null,
  },
  {
    name: 'V4 SAC event rejects ScvBytes for to_muxed_id',
    version: 4,
    topics: transferTopics(),
    data: v4MapData(1000n, xdr.ScVal.scvBytes(Buffer.concat([Buffer.from([1, 2, 3, 4]), Buffer.alloc(28)]))),
    expected: null,
  },
  // invalid events
  { name: 'Unsupported transaction meta version', version: 5, topics: transferTopics(), data: bigAmount(1000n), expected: null },
  { name: 'V3 event with insufficient topics', version: 3, topics: [symbol('transfer')], data: bigAmount(1000n), expected: null },
  {
    name: 'V4 mint with V3 format (too many topics)',
    version: 4,
    topics: [symbol('mint'), address(randomAccount), address(zeroContract), assetTopic(randomAsset())],
    data: bigAmount(2000n),
    expected: null,
  },
  {
    name: 'Contract ID doesn’t match asset',
    version: 3,
    topics: transferTopics(),
    data: bigAmount(1000n),
    contract: contractId(xdr.Asset.assetTypeNative(), passphrase),
    expected: null,
  },
  {
    name: 'Unknown event type',
    version: 3,
    topics: [symbol('unknown_event'), address(randomAccount), address(zeroContract), assetTopic(randomAsset())],
    data: bigAmount(1000n),
    expected: null,
  },
  {
    name: 'Non-address topic where address expected',
    version: 3,
    topics: [symbol('transfer'), symbol('not_an_address'), address(zeroContract), assetTopic(randomAsset())],
    data: bigAmount(1000n),
    expected: null,
  },
  { name: 'V4 map data insufficient elements', version: 4, topics: transferTopics(), data: xdr.ScVal.scvMap([]), expected: null },
  {
    name: 'V4 map data - missing amount',
    version: 4,
    topics: transferTopics(),
    data: xdr.ScVal.scvMap([
      new xdr.ScMapEntry({ key: symbol('to_muxed_id'), val: u64(12345) }),
      new xdr.ScMapEntry({ key: symbol('not_amount'), val: u64(12345) }),
    ]),
    expected: null,
  },
  {
    name: 'V4 map data - missing muxed id',
    version: 4,
    topics: transferTopics(),
    data: xdr.ScVal.scvMap([
      new xdr.ScMapEntry({ key: symbol('tooo_muxed_id'), val: u64(12345) }),
      new xdr.ScMapEntry({ key: symbol('amount'), val: bigAmount(1000n) }),
    ]),
    expected: null,
  },
  { name: 'V3 Invalid amount data type', version: 3, topics: transferTopics(), data: u64(1000), expected: null },
  { name: 'V4 Invalid amount data type', version: 4, topics: transferTopics(), data: u64(1000), expected: null },
];

describe('Horizon’s TestStellarAssetContractEventParsing', () => {
  it.each(cases)('$name', (tc) => {
    const built = contractEvent(tc.contract ?? contractId(randomAsset(), passphrase), tc.topics, tc.data);
    const decoded = xdr.ContractEvent.fromXdr(built.toXdr());
    expect(parseSacEvent(decoded, tc.version, networkId(passphrase))).toEqual(tc.expected);
  });
});

describe('parseSacEvent', () => {
  it('reads an int128 amount beyond int64 and a negative one', () => {
    for (const amount of [2n ** 100n + 5n, -7n]) {
      const built = contractEvent(contractId(randomAsset(), passphrase), transferTopics(), bigAmount(amount));
      expect(parseSacEvent(xdr.ContractEvent.fromXdr(built.toXdr()), 3, networkId(passphrase))?.amount).toBe(amount);
    }
  });
});
