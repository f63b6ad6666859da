// An account as the API serves it, checked against the embedded core's own record of it: what
// "equal to what stellar-core holds" means in the end-to-end tests of the core's operations.
import type { Horizon, Keypair } from '@stellar/stellar-sdk';
import { expect } from 'vitest';
import type { TestNetwork } from './network.js';

export async function expectAccountAsCore(network: TestNetwork, server: Horizon.Server, kp: Keypair): Promise<Horizon.AccountResponse> {
  const api = await server.loadAccount(kp.publicKey());
  const core = network.core.account(kp.publicKey());
  if (!core) throw new Error(`the core has no account ${kp.publicKey()}`);
  expect(api.subentry_count).toBe(core.numSubEntries);
  expect(api.num_sponsored).toBe(core.numSponsored);
  expect(api.num_sponsoring).toBe(core.numSponsoring);
  expect(api.sponsor).toBe(core.sponsor ?? undefined);
  const native = api.balances.find((b) => b.asset_type === 'native');
  expect(native?.balance).toBe((Number(core.balance) / 1e7).toFixed(7));
  return api;
}
