// Horizon's invoke_host_function effect tests (stellar-horizon internal/ingest/processors/
// effects_processor_test.go): TestInvokeHostFunctionEffects (the effects of Stellar Asset Contract
// events, made by its makeInvocationTransaction in TransactionMeta v3) and the CAP-0073 tests
// (trust lines and accounts an invocation creates). Horizon draws its keys at random; they are
// fixed here.
import { Account, MuxedAccount, xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import {
  type SacEventName,
  address,
  assetTopic,
  bigAmount,
  contractAddress,
  contractEvent,
  contractId,
  generateEvent,
  symbol,
  v4MapData,
} from '../../support/sac_events.js';
import {
  HORIZON_TEST_PASSPHRASE,
  type HorizonEffect,
  accountEntry,
  created,
  creditAsset,
  horizons,
  ledgerEntry,
  muxed,
  nativeAsset,
  operationEffectsOf,
  ours,
  state,
  trustLineAsset,
  trustLineEntry,
  updated,
} from '../support/horizon_effects.js';

/** makeInvocationTransactionWithChanges: one invoke_host_function operation of `source`, meta v3 */
function invocationEffects(source: string, changes: xdr.LedgerEntryChange[], events: xdr.ContractEvent[]) {
  const meta = xdr.TransactionMeta.v3(
    new xdr.TransactionMetaV3({
      ext: xdr.ExtensionPoint.v0(),
      txChangesBefore: [],
      operations: [new xdr.OperationMeta({ changes })],
      txChangesAfter: [],
      sorobanMeta: new xdr.SorobanTransactionMeta({
        ext: xdr.SorobanTransactionMetaExt.v0(),
        events,
        returnValue: xdr.ScVal.scvVoid(),
        diagnosticEvents: [],
      }),
    }),
  );
  const op = new xdr.Operation({
    sourceAccount: muxed(source),
    body: xdr.OperationBody.invokeHostFunction(
      new xdr.InvokeHostFunctionOp({
        hostFunction: xdr.HostFunction.hostFunctionTypeUploadContractWasm(Buffer.alloc(0)),
        auth: [],
      }),
    ),
  });
  return ours(operationEffectsOf({ op, meta }));
}

const admin = 'GDRW375MAYR46ODGF2WGANQC2RRZL7O246DYHHCGWTV2RE7IHE2QUQLD';
const from = 'GAUJETIZVEP2NRYLUESJ3LS66NVCEGMON4UDCBCSBEVPIID773P2W6AY';
const to = 'GDMQUXK7ZUCWM5472ZU3YLDP4BMJLQQ76DEMNYDEY2ODEEGGRKLEWGW2';
const fromContract = contractAddress(Buffer.alloc(32));
const toContract = contractAddress(Buffer.concat([Buffer.from([1]), Buffer.alloc(31)]));
const OP = '4294967297';

describe('Horizon’s TestInvokeHostFunctionEffects', () => {
  const asset = creditAsset('TESTER', admin);
  const tester = { amount: '0.0012345', asset_code: 'TESTER', asset_issuer: admin, asset_type: 'credit_alphanum12' };
  const cases: { desc: string; asset?: xdr.Asset; type: SacEventName; from?: string; to?: string; expected: HorizonEffect[] }[] = [
    {
      desc: 'transfer',
      type: 'transfer',
      expected: [
        { order: 1, address: from, effectType: 'account_debited', operationID: OP, details: tester },
        { order: 2, address: to, effectType: 'account_credited', operationID: OP, details: tester },
      ],
    },
    {
      desc: 'transfer between contracts',
      type: 'transfer',
      from: fromContract,
      to: toContract,
      expected: [
        { order: 1, address: admin, effectType: 'contract_debited', operationID: OP, details: { ...tester, contract: fromContract } },
        { order: 2, address: admin, effectType: 'contract_credited', operationID: OP, details: { ...tester, contract: toContract } },
      ],
    },
    { desc: 'mint', type: 'mint', expected: [{ order: 1, address: to, effectType: 'account_credited', operationID: OP, details: tester }] },
    {
      desc: 'burn',
      type: 'burn',
      expected: [{ order: 1, address: from, effectType: 'account_debited', operationID: OP, details: tester }],
    },
    {
      desc: 'burn from contract',
      type: 'burn',
      from: fromContract,
      expected: [
        { order: 1, address: admin, effectType: 'contract_debited', operationID: OP, details: { ...tester, contract: fromContract } },
      ],
    },
    {
      desc: 'clawback',
      type: 'clawback',
      expected: [{ order: 1, address: from, effectType: 'account_debited', operationID: OP, details: tester }],
    },
    {
      desc: 'clawback from contract',
      type: 'clawback',
      from: fromContract,
      expected: [
        { order: 1, address: admin, effectType: 'contract_debited', operationID: OP, details: { ...tester, contract: fromContract } },
      ],
    },
    {
      desc: 'transfer native',
      type: 'transfer',
      asset: nativeAsset(),
      expected: [
        { order: 1, address: from, effectType: 'account_debited', operationID: OP, details: { amount: '0.0012345', asset_type: 'native' } },
        { order: 2, address: to, effectType: 'account_credited', operationID: OP, details: { amount: '0.0012345', asset_type: 'native' } },
      ],
    },
    {
      desc: 'transfer into contract',
      type: 'transfer',
      to: toContract,
      expected: [
        { order: 1, address: from, effectType: 'account_debited', operationID: OP, details: tester },
        { order: 2, address: admin, effectType: 'contract_credited', operationID: OP, details: { ...tester, contract: toContract } },
      ],
    },
    {
      desc: 'transfer out of contract',
      type: 'transfer',
      from: fromContract,
      expected: [
        { order: 1, address: admin, effectType: 'contract_debited', operationID: OP, details: { ...tester, contract: fromContract } },
        { order: 2, address: to, effectType: 'account_credited', operationID: OP, details: tester },
      ],
    },
  ];

  it.each(cases)('$desc', (tc) => {
    const event = generateEvent(tc.type, tc.from ?? from, tc.to ?? to, admin, tc.asset ?? asset, 12345n, HORIZON_TEST_PASSPHRASE);
    expect(invocationEffects(admin, [], [event])).toEqual(horizons(tc.expected));
  });
});

describe('Horizon’s CAP-0073 tests', () => {
  const newAccount = 'GCQZP3IU7XU6EJ63JZXKCQOYT2RNXN3HB5CNHENNUEUHSMA4VUJJJSEN';
  const trustor = 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H';
  const MAX = 9223372036854775807n;

  it('TestCAP0073TrustlineEffects', () => {
    const line = trustLineEntry(trustor, trustLineAsset(creditAsset('USD', admin)), { limit: MAX, flags: 1 });
    expect(invocationEffects(admin, [created(ledgerEntry(line))], [])).toEqual(
      horizons([
        {
          address: trustor,
          operationID: OP,
          order: 1,
          effectType: 'trustline_created',
          details: { limit: '922337203685.4775807', asset_type: 'credit_alphanum4', asset_code: 'USD', asset_issuer: admin },
        },
      ]),
    );
  });

  it('TestCAP0073AccountCreatedEffects', () => {
    const event = generateEvent('transfer', from, newAccount, admin, nativeAsset(), 1000000000n, HORIZON_TEST_PASSPHRASE);
    const account = ledgerEntry(accountEntry({ accountId: newAccount, balance: 1000000000n }));
    expect(invocationEffects(admin, [created(account)], [event])).toEqual(
      horizons([
        {
          address: from,
          operationID: OP,
          order: 1,
          effectType: 'account_debited',
          details: { amount: '100.0000000', asset_type: 'native' },
        },
        {
          address: newAccount,
          operationID: OP,
          order: 2,
          effectType: 'account_credited',
          details: { amount: '100.0000000', asset_type: 'native' },
        },
        { address: newAccount, operationID: OP, order: 3, effectType: 'account_created', details: { starting_balance: '100.0000000' } },
        { address: newAccount, operationID: OP, order: 4, effectType: 'signer_created', details: { public_key: newAccount, weight: 1 } },
      ]),
    );
  });

  it('TestCAP0073TrustAndTransferCombined', () => {
    const issuer = 'GAHK7EEG2WWHVKDNT4CEQFZGKF2LGDSW2IVM4S5DP42RBW3K6BTODB4A';
    const event = generateEvent('transfer', from, newAccount, admin, nativeAsset(), 500000000n, HORIZON_TEST_PASSPHRASE);
    const line = trustLineEntry(trustor, trustLineAsset(creditAsset('EUR', issuer)), { limit: MAX, flags: 1 });
    const account = ledgerEntry(accountEntry({ accountId: newAccount, balance: 500000000n }));
    expect(invocationEffects(admin, [created(ledgerEntry(line)), created(account)], [event])).toEqual(
      horizons([
        {
          address: from,
          operationID: OP,
          order: 1,
          effectType: 'account_debited',
          details: { amount: '50.0000000', asset_type: 'native' },
        },
        {
          address: newAccount,
          operationID: OP,
          order: 2,
          effectType: 'account_credited',
          details: { amount: '50.0000000', asset_type: 'native' },
        },
        {
          address: trustor,
          operationID: OP,
          order: 3,
          effectType: 'trustline_created',
          details: { limit: '922337203685.4775807', asset_type: 'credit_alphanum4', asset_code: 'EUR', asset_issuer: issuer },
        },
        { address: newAccount, operationID: OP, order: 4, effectType: 'account_created', details: { starting_balance: '50.0000000' } },
        { address: newAccount, operationID: OP, order: 5, effectType: 'signer_created', details: { public_key: newAccount, weight: 1 } },
      ]),
    );
  });

  it('TestCAP0073NoEffectsForExistingEntries', () => {
    const existing = 'GACMZD5VJXTRLKVET72CETCYKELPNCOTTBDC6DHFEUPLG5DHEK534JQX';
    const existingTrustor = 'GANFZDRBCNTUXIODCJEYMACPMCSZEVE4WZGZ3CZDZ3P2SXK4KH75IK6Y';
    const line = (balance: bigint) =>
      ledgerEntry(trustLineEntry(existingTrustor, trustLineAsset(creditAsset('USD', admin)), { balance, limit: 10000000000n, flags: 1 }));
    const changes = [
      state(ledgerEntry(accountEntry({ accountId: existing, balance: 1000000000n }))),
      updated(ledgerEntry(accountEntry({ accountId: existing, balance: 900000000n }))),
      state(line(100n)),
      updated(line(200n)),
    ];
    expect(invocationEffects(admin, changes, [])).toEqual([]);
  });
});

describe('SAC events in TransactionMeta v4 (Zenith’s own case, from Horizon’s rules)', () => {
  it('reads the operation’s events, mints without an admin, and credits the muxed account of `to_muxed_id`', () => {
    const asset = creditAsset('TESTER', admin);
    const id = contractId(asset, HORIZON_TEST_PASSPHRASE);
    const events = [
      contractEvent(id, [symbol('transfer'), address(from), address(to), assetTopic(asset)], v4MapData(12345n, xdr.ScVal.scvU64(42n))),
      contractEvent(id, [symbol('mint'), address(toContract), assetTopic(asset)], bigAmount(10n)),
      // another contract's event of the same shape is not the SAC's
      contractEvent(Buffer.alloc(32, 9), [symbol('burn'), address(from), assetTopic(asset)], bigAmount(10n)),
    ];
    const meta = xdr.TransactionMeta.v4(
      new xdr.TransactionMetaV4({
        ext: xdr.ExtensionPoint.v0(),
        txChangesBefore: [],
        operations: [new xdr.OperationMetaV2({ ext: xdr.ExtensionPoint.v0(), changes: [], events })],
        txChangesAfter: [],
        sorobanMeta: null,
        events: [],
        diagnosticEvents: [],
      }),
    );
    const op = new xdr.Operation({
      sourceAccount: muxed(admin),
      body: xdr.OperationBody.invokeHostFunction(
        new xdr.InvokeHostFunctionOp({ hostFunction: xdr.HostFunction.hostFunctionTypeUploadContractWasm(Buffer.alloc(0)), auth: [] }),
      ),
    });
    const tester = (amount: string) => ({ amount, asset_code: 'TESTER', asset_issuer: admin, asset_type: 'credit_alphanum12' });
    expect(ours(operationEffectsOf({ op, meta }))).toEqual(
      horizons([
        { order: 1, address: from, effectType: 'account_debited', operationID: OP, details: tester('0.0012345') },
        {
          order: 2,
          address: to,
          addressMuxed: new MuxedAccount(new Account(to, '0'), '42').accountId(),
          effectType: 'account_credited',
          operationID: OP,
          details: tester('0.0012345'),
        },
        {
          order: 3,
          address: admin,
          effectType: 'contract_credited',
          operationID: OP,
          details: { ...tester('0.0000010'), contract: toContract },
        },
      ]),
    );
  });
});
