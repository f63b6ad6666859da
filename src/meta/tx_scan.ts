// Walks transaction envelopes and results straight from the bytes, without the library's XDR
// objects: where they end, and where an envelope's signatures start (what precedes them is hashed).
// A reingest then decodes each transaction only when it builds its rows, so a ledger's decoded
// transactions never pile up in memory. Classic operations only: anything else returns null and
// the caller decodes with the library.
import { Scanner, Unsupported, scanOrNull } from './xdr_scan.js';

export interface EnvelopeScan {
  /** EnvelopeType: 0 (v0), 2 (v1) or 5 (fee bump) */
  type: number;
  /** where the outer signatures start */
  signatures: number;
  end: number;
}

// OperationType, XDR values
enum Op {
  CreateAccount = 0,
  Payment,
  PathPaymentStrictReceive,
  ManageSellOffer,
  CreatePassiveSellOffer,
  SetOptions,
  ChangeTrust,
  AllowTrust,
  AccountMerge,
  Inflation,
  ManageData,
  BumpSequence,
  ManageBuyOffer,
  PathPaymentStrictSend,
}

const MAX_OPERATIONS = 100;
const MAX_SIGNATURES = 20;

class TxScanner extends Scanner {
  price(): void {
    this.skip(8);
  }

  path(): void {
    this.array(5, () => this.asset(false));
  }

  operationBody(): void {
    switch (this.u32()) {
      case Op.CreateAccount:
        this.skipAccountId();
        this.skip(8);
        return;
      case Op.Payment:
        this.muxedAccount();
        this.asset(false);
        this.skip(8);
        return;
      case Op.PathPaymentStrictReceive:
      case Op.PathPaymentStrictSend:
        this.asset(false);
        this.skip(8);
        this.muxedAccount();
        this.asset(false);
        this.skip(8);
        this.path();
        return;
      case Op.ManageSellOffer:
      case Op.ManageBuyOffer:
        this.asset(false);
        this.asset(false);
        this.skip(8);
        this.price();
        this.skip(8);
        return;
      case Op.CreatePassiveSellOffer:
        this.asset(false);
        this.asset(false);
        this.skip(8);
        this.price();
        return;
      case Op.SetOptions:
        this.skipOptionalAccountId();
        for (let i = 0; i < 6; i++) this.skipOptional(4); // flags, weight, thresholds
        if (this.u32() !== 0) this.skipVarOpaque(32); // home domain
        if (this.u32() !== 0) {
          this.signerKey();
          this.skip(4);
        }
        return;
      case Op.ChangeTrust:
        if (this.u32() === 3) {
          // a liquidity pool share: constant product parameters
          if (this.u32() !== 0) throw new Unsupported();
          this.asset(false);
          this.asset(false);
          this.skip(4);
        } else {
          this.pos -= 4; // an asset, type included
          this.asset(false);
        }
        this.skip(8);
        return;
      case Op.AllowTrust: {
        this.skipAccountId();
        const code = this.u32();
        if (code !== 1 && code !== 2) throw new Unsupported();
        this.skip(code === 1 ? 4 + 4 : 12 + 4);
        return;
      }
      case Op.AccountMerge:
        this.muxedAccount();
        return;
      case Op.Inflation:
        return;
      case Op.ManageData:
        this.skipVarOpaque(64);
        if (this.u32() !== 0) this.skipVarOpaque(64);
        return;
      case Op.BumpSequence:
        this.skip(8);
        return;
      default:
        throw new Unsupported();
    }
  }

  operations(): void {
    this.array(MAX_OPERATIONS, () => {
      if (this.u32() !== 0) this.muxedAccount();
      this.operationBody();
    });
  }

  memo(): void {
    const type = this.u32();
    if (type === 1) this.skipVarOpaque(28);
    else if (type === 2) this.skip(8);
    else if (type === 3 || type === 4) this.skip(32);
    else if (type !== 0) throw new Unsupported();
  }

  preconditions(): void {
    const type = this.u32();
    if (type === 1) {
      this.skip(16);
      return;
    }
    if (type === 0) return;
    if (type !== 2) throw new Unsupported();
    this.skipOptional(16); // time bounds
    this.skipOptional(8); // ledger bounds
    this.skipOptional(8); // min sequence number
    this.skip(8 + 4); // min sequence age, ledger gap
    this.array(2, () => this.signerKey());
  }

  /** a Transaction (v1) */
  transaction(): void {
    this.muxedAccount();
    this.skip(4 + 8); // fee, sequence number
    this.preconditions();
    this.memo();
    this.operations();
    this.emptyExt(); // arm 1 is Soroban data
  }

  /** a TransactionV0: its source is a bare key and time bounds its only condition */
  transactionV0(): void {
    this.skip(32 + 4 + 8);
    this.skipOptional(16);
    this.memo();
    this.operations();
    this.emptyExt();
  }

  signatures(): void {
    this.array(MAX_SIGNATURES, () => {
      this.skip(4);
      this.skipVarOpaque(64);
    });
  }

  envelope(): EnvelopeScan {
    const type = this.u32();
    if (type === 0) this.transactionV0();
    else if (type === 2) this.transaction();
    else if (type === 5) {
      this.muxedAccount();
      this.skip(8);
      if (this.u32() !== 2) throw new Unsupported();
      this.transaction();
      this.signatures();
      this.emptyExt();
    } else throw new Unsupported();
    const signatures = this.pos;
    this.signatures();
    return { type, signatures, end: this.pos };
  }

  claimAtoms(): void {
    this.array(Number.MAX_SAFE_INTEGER, () => {
      const type = this.u32();
      if (type === 0) this.skip(32 + 8);
      else if (type === 1) {
        this.skipAccountId();
        this.skip(8);
      } else if (type === 2) this.skip(32);
      else throw new Unsupported();
      this.asset(false);
      this.skip(8);
      this.asset(false);
      this.skip(8);
    });
  }

  /** an OperationResultTr: only some success arms and path payments' no-issuer arm carry data */
  operationResultBody(): void {
    const type = this.u32();
    const code = this.i32();
    switch (type) {
      case Op.CreateAccount:
      case Op.Payment:
      case Op.SetOptions:
      case Op.ChangeTrust:
      case Op.AllowTrust:
      case Op.ManageData:
      case Op.BumpSequence:
        return;
      case Op.PathPaymentStrictReceive:
      case Op.PathPaymentStrictSend:
        if (code === 0) {
          this.claimAtoms();
          this.skipAccountId();
          this.asset(false);
          this.skip(8);
        } else if (code === -9) {
          this.asset(false);
        }
        return;
      case Op.ManageSellOffer:
      case Op.CreatePassiveSellOffer:
      case Op.ManageBuyOffer:
        if (code !== 0) return;
        this.claimAtoms();
        switch (this.u32()) {
          case 0: // created
          case 1: // updated: the offer as it stands
            this.offer();
            return;
          case 2: // deleted
            return;
          default:
            throw new Unsupported();
        }
      case Op.AccountMerge:
        if (code === 0) this.skip(8);
        return;
      case Op.Inflation:
        if (code === 0) {
          this.array(Number.MAX_SAFE_INTEGER, () => {
            this.skipAccountId();
            this.skip(8);
          });
        }
        return;
      default:
        throw new Unsupported();
    }
  }

  operationResults(): void {
    this.array(MAX_OPERATIONS, () => {
      if (this.i32() === 0) this.operationResultBody(); // opINNER; other codes are void
    });
  }

  /** the result arm of a TransactionResult or InnerTransactionResult */
  transactionResultBody(inner: boolean): void {
    const code = this.i32();
    if (code === 0 || code === -1) this.operationResults();
    else if (code === 1 || code === -13) {
      // a fee bump's inner result pair
      if (inner) throw new Unsupported();
      this.skip(32 + 8); // inner hash, fee charged
      this.transactionResultBody(true);
      this.emptyExt();
    }
  }

  /** a TransactionResultPair */
  resultPair(): number {
    this.skip(32 + 8); // hash, fee charged
    this.transactionResultBody(false);
    this.emptyExt();
    return this.pos;
  }
}

/** The TransactionEnvelope at `pos`, or null when it holds operations this scanner does not know. */
export function scanEnvelope(buf: Buffer, pos: number): EnvelopeScan | null {
  return scanOrNull(new TxScanner(buf, pos), (s) => s.envelope());
}

/** The end of the TransactionResultPair at `pos`, or null when it holds results this scanner does not know. */
export function scanResultPair(buf: Buffer, pos: number): number | null {
  return scanOrNull(new TxScanner(buf, pos), (s) => s.resultPair());
}
