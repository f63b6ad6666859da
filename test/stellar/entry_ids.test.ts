// Pool ids with stellar-core's numbers (LiquidityPoolTradeTests.cpp, "liquidity pool id").
import { StrKey } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import { creditAsset, LIQUIDITY_POOL_FEE_V18, NATIVE_ASSET, poolIdOfAssets, type AssetValue } from '../../src/stellar/index.js';

const acc1 = StrKey.encodeEd25519PublicKey(Buffer.from('0123456789abcdef'.repeat(4), 'hex'));
const acc2 = StrKey.encodeEd25519PublicKey(Buffer.from('abcdef0123456789'.repeat(4), 'hex'));

// testGetPoolID: the id is the same whichever asset comes first
function expectPoolId(x: AssetValue, y: AssetValue, hex: string): void {
  expect(poolIdOfAssets(x, y, LIQUIDITY_POOL_FEE_V18)).toBe(hex);
  expect(poolIdOfAssets(y, x, LIQUIDITY_POOL_FEE_V18)).toBe(hex);
}

describe('poolIdOfAssets (stellar-core getPoolID)', () => {
  it('native and alphanum4/alphanum12', () => {
    expectPoolId(NATIVE_ASSET, creditAsset('AbC', acc1), 'c17f36fbd210e43dca1cda8edc5b6c0f825fcb72b39f0392fd6309844d77ff7d');
    expectPoolId(NATIVE_ASSET, creditAsset('AbCd', acc1), '80e0c5dc79ed76bb7e63681f6456136762f0d01ede94bb379dbc793e66db35e6');
    expectPoolId(NATIVE_ASSET, creditAsset('AbCdEfGhIjK', acc1), 'd2306c6e8532f99418e9d38520865e1c1059cddb6793da3cc634224f2ffb5bd4');
    expectPoolId(NATIVE_ASSET, creditAsset('AbCdEfGhIjKl', acc1), '807e9e66653b5fda4dd4e672ff64a929fc5fdafe152eeadc07bb460c4849d711');
  });

  it('alphanum4 and alphanum4, alphanum12 and alphanum12', () => {
    expectPoolId(creditAsset('AbC', acc1), creditAsset('aBc', acc1), '0239013ab016985fc3ab077d165a9b21b822efa013fdd422381659e76aec505b');
    expectPoolId(creditAsset('AbCd', acc1), creditAsset('aBc', acc1), 'cadb490d15b4333890377cd17400acf7681e14d6d949869ffa1fbbad7a6d2fde');
    expectPoolId(creditAsset('AbC', acc1), creditAsset('aBcD', acc1), 'a938f8f346f3aff41d2e03b05137ef1955a723861802a4042f51f0f816e0db36');
    expectPoolId(creditAsset('AbCd', acc1), creditAsset('aBcD', acc1), 'c89646bb6db726bfae784ab66041abbf54747cf4b6b16dff2a5c05830ad9c16b');
    expectPoolId(
      creditAsset('AbCdEfGhIjK', acc1),
      creditAsset('aBcDeFgHiJk', acc1),
      '88dc054dd0f8146bac0e691095ce2b90cd902b499761d22b1c94df120ca0b060',
    );
    expectPoolId(
      creditAsset('AbCdEfGhIjKl', acc1),
      creditAsset('aBcDeFgHiJk', acc1),
      '09672910d891e658219d2f33a8885a542b2a5a09e9f486461201bd278a3e92a4',
    );
    expectPoolId(
      creditAsset('AbCdEfGhIjK', acc1),
      creditAsset('aBcDeFgHiJkl', acc1),
      '63501addf8a5a6522eac996226069190b5226c71cfdda22347022418af1948a0',
    );
    expectPoolId(
      creditAsset('AbCdEfGhIjKl', acc1),
      creditAsset('aBcDeFgHiJkl', acc1),
      'e851197a0148e949bdc03d52c53821b9afccc0fadfdc41ae01058c14c252e03b',
    );
  });

  it('same code, different issuer', () => {
    expectPoolId(creditAsset('aBc', acc1), creditAsset('aBc', acc2), '5d7188454299529856586e81ea385d2c131c6afdd9d58c82e9aa558c16522fea');
    expectPoolId(creditAsset('aBcD', acc1), creditAsset('aBcD', acc2), '00d152f5f6b7e46eaf558576512207ea835a332f17ca777fba3cb835ef7dc1ef');
    expectPoolId(
      creditAsset('aBcDeFgHiJk', acc1),
      creditAsset('aBcDeFgHiJk', acc2),
      'cad65154300f087e652981fa5f76aa469b43ad53e9a5d348f1f93da57193d022',
    );
    expectPoolId(
      creditAsset('aBcDeFgHiJkL', acc1),
      creditAsset('aBcDeFgHiJkL', acc2),
      '93fa82ecaabe987461d1e3c8e0fd6510558b86ac82a41f7c70b112281be90c71',
    );
  });

  it('alphanum4 before alphanum12 whatever the code and issuer', () => {
    const cases: [string, string, string, string, string][] = [
      ['aBc', acc1, 'aBcDeFgHiJk', acc2, 'c0d4c87bbaade53764b904fde2901a0353af437e9d3a976f1252670b85a36895'],
      ['aBcD', acc1, 'aBcDeFgHiJk', acc2, '1ee5aa0f0e6b8123c2da6592389481f64d816bfe3c3c06be282b0cdb0971f840'],
      ['aBc', acc1, 'aBcDeFgHiJkL', acc2, 'a87bc151b119c1ea289905f0cb3cf95be7b0f096a0b6685bf2dcae70f9515d53'],
      ['aBcD', acc1, 'aBcDeFgHiJkL', acc2, '3caf78118d6cabd42618eef47bbc2da8abe7fe42539b4b502f08766485592a81'],
      ['aBc', acc2, 'aBcDeFgHiJk', acc1, 'befb7f966ae63adcfde6a6670478bb7d936c29849e25e3387bb9e74566e3a29f'],
      ['aBcD', acc2, 'aBcDeFgHiJk', acc1, '593cc996c3f0d32e165fcbee9fdc5dba6ab05140a4a9254e08ad8cb67fe657a1'],
      ['aBc', acc2, 'aBcDeFgHiJkL', acc1, 'd66af9b7417547c3dc000617533405349d1f622015daf3e9bad703ea34ee1d17'],
      ['aBcD', acc2, 'aBcDeFgHiJkL', acc1, 'c1c7a4b9db6e3754cae3017f72b6b7c93198f593182c541bcab3795c6413a677'],
    ];
    for (const [c1, i1, c2, i2, hex] of cases) expectPoolId(creditAsset(c1, i1), creditAsset(c2, i2), hex);
  });
});
