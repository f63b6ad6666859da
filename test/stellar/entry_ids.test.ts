// Pool ids with stellar-core's numbers (LiquidityPoolTradeTests.cpp, "liquidity pool id"), and a new
// claimable balance's id against the ids stellar-core's own ledgers hold.
import { StrKey } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { claimableBalanceHash, creditAsset, LIQUIDITY_POOL_FEE_V18, NATIVE_ASSET, poolIdOfAssets } from '../../src/stellar/index.js';

const acc1 = StrKey.encodeEd25519PublicKey(Buffer.from('0123456789abcdef'.repeat(4), 'hex'));
const acc2 = StrKey.encodeEd25519PublicKey(Buffer.from('abcdef0123456789'.repeat(4), 'hex'));

// testGetPoolID's cases: "code@1"/"code@2" for a credit asset of acc1/acc2, "native"
const CASES = `
native AbC@1 c17f36fbd210e43dca1cda8edc5b6c0f825fcb72b39f0392fd6309844d77ff7d
native AbCd@1 80e0c5dc79ed76bb7e63681f6456136762f0d01ede94bb379dbc793e66db35e6
native AbCdEfGhIjK@1 d2306c6e8532f99418e9d38520865e1c1059cddb6793da3cc634224f2ffb5bd4
native AbCdEfGhIjKl@1 807e9e66653b5fda4dd4e672ff64a929fc5fdafe152eeadc07bb460c4849d711
AbC@1 aBc@1 0239013ab016985fc3ab077d165a9b21b822efa013fdd422381659e76aec505b
AbCd@1 aBc@1 cadb490d15b4333890377cd17400acf7681e14d6d949869ffa1fbbad7a6d2fde
AbC@1 aBcD@1 a938f8f346f3aff41d2e03b05137ef1955a723861802a4042f51f0f816e0db36
AbCd@1 aBcD@1 c89646bb6db726bfae784ab66041abbf54747cf4b6b16dff2a5c05830ad9c16b
AbCdEfGhIjK@1 aBcDeFgHiJk@1 88dc054dd0f8146bac0e691095ce2b90cd902b499761d22b1c94df120ca0b060
AbCdEfGhIjKl@1 aBcDeFgHiJk@1 09672910d891e658219d2f33a8885a542b2a5a09e9f486461201bd278a3e92a4
AbCdEfGhIjK@1 aBcDeFgHiJkl@1 63501addf8a5a6522eac996226069190b5226c71cfdda22347022418af1948a0
AbCdEfGhIjKl@1 aBcDeFgHiJkl@1 e851197a0148e949bdc03d52c53821b9afccc0fadfdc41ae01058c14c252e03b
aBc@1 aBc@2 5d7188454299529856586e81ea385d2c131c6afdd9d58c82e9aa558c16522fea
aBcD@1 aBcD@2 00d152f5f6b7e46eaf558576512207ea835a332f17ca777fba3cb835ef7dc1ef
aBcDeFgHiJk@1 aBcDeFgHiJk@2 cad65154300f087e652981fa5f76aa469b43ad53e9a5d348f1f93da57193d022
aBcDeFgHiJkL@1 aBcDeFgHiJkL@2 93fa82ecaabe987461d1e3c8e0fd6510558b86ac82a41f7c70b112281be90c71
aBc@1 aBcDeFgHiJk@2 c0d4c87bbaade53764b904fde2901a0353af437e9d3a976f1252670b85a36895
aBcD@1 aBcDeFgHiJk@2 1ee5aa0f0e6b8123c2da6592389481f64d816bfe3c3c06be282b0cdb0971f840
aBc@1 aBcDeFgHiJkL@2 a87bc151b119c1ea289905f0cb3cf95be7b0f096a0b6685bf2dcae70f9515d53
aBcD@1 aBcDeFgHiJkL@2 3caf78118d6cabd42618eef47bbc2da8abe7fe42539b4b502f08766485592a81
aBc@2 aBcDeFgHiJk@1 befb7f966ae63adcfde6a6670478bb7d936c29849e25e3387bb9e74566e3a29f
aBcD@2 aBcDeFgHiJk@1 593cc996c3f0d32e165fcbee9fdc5dba6ab05140a4a9254e08ad8cb67fe657a1
aBc@2 aBcDeFgHiJkL@1 d66af9b7417547c3dc000617533405349d1f622015daf3e9bad703ea34ee1d17
aBcD@2 aBcDeFgHiJkL@1 c1c7a4b9db6e3754cae3017f72b6b7c93198f593182c541bcab3795c6413a677
`;

const asset = (text: string) => {
  if (text === 'native') return NATIVE_ASSET;
  const [code, n] = text.split('@') as [string, string];
  return creditAsset(code, n === '1' ? acc1 : acc2);
};

describe('poolIdOfAssets (stellar-core getPoolID)', () => {
  it.each(CASES.trim().split('\n'))('%s, in either order', (line) => {
    const [x, y, hex] = line.split(' ') as [string, string, string];
    expect(poolIdOfAssets(asset(x), asset(y), LIQUIDITY_POOL_FEE_V18)).toBe(hex);
    expect(poolIdOfAssets(asset(y), asset(x), LIQUIDITY_POOL_FEE_V18)).toBe(hex);
  });
});

describe('claimableBalanceHash', () => {
  it('is the id stellar-core gave a balance (FrozenLedgerKeysTests golden meta, test-lcm-current at a9b86132)', () => {
    // ledger 12 of "claim_claimable_balance_trustline_frozen": a create_claimable_balance, the first
    // operation of a transaction from GBIFX…Z7SX with sequence number 12884901891; the result and
    // the created entry carry this id
    expect(claimableBalanceHash('GBIFX2QKGC6J4VRBEQDJZJSFZA43IQK2CYR3BF473UFC7VMSOOM2Z7SX', 12884901891n, 0).toString('hex')).toBe(
      '1da94a495496a5f1565e98d2a3ba83c798ddc43a94ecc81c29b43c764a233fa0',
    );
  });

  it('changes with the sequence number and the operation index ("multiple creates in tx to test index in hash")', () => {
    const source = 'GBIFX2QKGC6J4VRBEQDJZJSFZA43IQK2CYR3BF473UFC7VMSOOM2Z7SX';
    const ids = new Set([
      claimableBalanceHash(source, 12884901891n, 0).toString('hex'),
      claimableBalanceHash(source, 12884901891n, 1).toString('hex'),
      claimableBalanceHash(source, 12884901892n, 0).toString('hex'),
    ]);
    expect(ids.size).toBe(3);
  });
});
