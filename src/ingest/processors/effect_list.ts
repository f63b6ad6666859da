// What the effect processors read of one operation, and the list its effects are appended to
// (Horizon's effectsWrapper): `order` counts from 1 in the order they are added.
import type { xdr } from '@stellar/stellar-sdk/base';
import { changePairs, sortChangePairs, type EntryChange } from '../../meta/index.js';
import { EFFECT_TYPES, muxedAccountFromXdr, type EffectTypeName } from '../../stellar/index.js';
import type { Details, EffectRow } from '../rows.js';

export interface EffectInput {
  operationId: bigint;
  closedAt: string;
  op: xdr.Operation;
  source: xdr.MuxedAccount;
  sourceId: string;
  result: xdr.OperationResultTr;
  changes: xdr.LedgerEntryChange[];
  /** the transaction's meta (its contract events); read only for a Soroban operation */
  meta: xdr.TransactionMeta;
  /** the network's id: the events of an asset's contract are recognized by the contract's id */
  networkId: Buffer;
  /**
   * false when the operation's changes are known to name no sponsor and hold no liquidity pool
   * (LedgerTx.operationSponsored): they are then not decoded for sponsorship and pool effects
   */
  sponsored?: boolean;
}

export class EffectList {
  readonly rows: EffectRow[] = [];
  #changes: EntryChange[] | null = null;

  constructor(readonly input: EffectInput) {}

  /** the operation's changes as pairs, in stellar-go's order (by ledger key) */
  get changes(): EntryChange[] {
    return (this.#changes ??= sortChangePairs(changePairs(this.input.changes)));
  }

  add(account: string, muxed: string | null, type: EffectTypeName, details: Details): void {
    this.rows.push({
      operation_id: this.input.operationId,
      order: this.rows.length + 1,
      account,
      account_muxed: muxed,
      closed_at: this.input.closedAt,
      type: EFFECT_TYPES[type],
      details,
    });
  }

  addMuxed(account: xdr.MuxedAccount, type: EffectTypeName, details: Details): void {
    const decoded = muxedAccountFromXdr(account);
    this.add(decoded.accountId, decoded.muxedAddress, type, details);
  }

  /** an effect on the operation's source account */
  addSource(type: EffectTypeName, details: Details): void {
    this.addMuxed(this.input.source, type, details);
  }
}
