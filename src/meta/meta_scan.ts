// Walks TransactionMeta and LedgerEntryChanges XDR straight from the bytes, without the library's
// XDR objects: it finds where they end and which accounts each operation changed, which is all a
// reingest needs from the meta (decoding it with the library was the largest cost). Only classic
// entries (accounts, trust lines, offers, data) are understood; anything else returns null and the
// caller decodes with the library as before.
import { Scanner, Unsupported, scanOrNull } from './xdr_scan.js';

/** where the scanned value ends, the accounts changed by each operation, and which operations' changes name a sponsor */
export interface MetaScan {
  end: number;
  operationAccounts: string[][];
  /** whether an operation's changes name a sponsor: an entry's (LedgerEntryExt v1) or a signer's */
  operationSponsored: boolean[];
}

class MetaScanner extends Scanner {
  /** a sponsor was met since the flag was last cleared */
  sponsored = false;

  /** an optional sponsor's account id */
  sponsor(): void {
    if (this.u32() === 0) return;
    this.skipAccountId();
    this.sponsored = true;
  }

  account(): string {
    const id = this.accountId();
    this.skip(8 + 8 + 4); // balance, seqNum, numSubEntries
    this.skipOptionalAccountId(); // inflationDest
    this.skip(4); // flags
    this.skipVarOpaque(32); // homeDomain
    this.skip(4); // thresholds
    const signers = this.u32();
    if (signers > 20) throw new Unsupported();
    for (let i = 0; i < signers; i++) {
      this.signerKey();
      this.skip(4);
    }
    const v1 = this.u32();
    if (v1 === 0) return id;
    if (v1 !== 1) throw new Unsupported();
    this.skip(16); // liabilities
    const v2 = this.u32();
    if (v2 === 0) return id;
    if (v2 !== 2) throw new Unsupported();
    this.skip(8); // numSponsored, numSponsoring
    const sponsors = this.u32();
    if (sponsors > 20) throw new Unsupported();
    for (let i = 0; i < sponsors; i++) this.sponsor();
    const v3 = this.u32();
    if (v3 === 0) return id;
    if (v3 !== 3) throw new Unsupported();
    this.emptyExt();
    this.skip(4 + 8); // seqLedger, seqTime
    return id;
  }

  trustLine(): void {
    this.skipAccountId();
    this.asset(true);
    this.skip(8 + 8 + 4); // balance, limit, flags
    const v1 = this.u32();
    if (v1 === 0) return;
    if (v1 !== 1) throw new Unsupported();
    this.skip(16);
    const v2 = this.u32();
    if (v2 === 0) return;
    if (v2 !== 2) throw new Unsupported();
    this.skip(4); // liquidityPoolUseCount
    this.emptyExt();
  }

  data(): void {
    this.skipAccountId();
    this.skipVarOpaque(64);
    this.skipVarOpaque(64);
    this.emptyExt();
  }

  /** a LedgerEntry; the account's id when it is an account */
  entry(): string | null {
    this.skip(4); // lastModifiedLedgerSeq
    const type = this.u32();
    let account: string | null = null;
    if (type === 0) account = this.account();
    else if (type === 1) this.trustLine();
    else if (type === 2) this.offer();
    else if (type === 3) this.data();
    else throw new Unsupported();
    const ext = this.u32();
    if (ext === 1) {
      this.sponsor(); // sponsoringID
      this.emptyExt();
    } else if (ext !== 0) {
      throw new Unsupported();
    }
    return account;
  }

  /** a LedgerKey; the account's id when it is an account */
  key(): string | null {
    const type = this.u32();
    if (type === 0) return this.accountId();
    this.skipAccountId();
    if (type === 1) this.asset(true);
    else if (type === 2) this.skip(8);
    else if (type === 3) this.skipVarOpaque(64);
    else throw new Unsupported();
    return null;
  }

  /** LedgerEntryChanges; account ids go to `accounts` in order, as changedAccounts lists them */
  changes(accounts: string[] | null): void {
    const count = this.u32();
    for (let i = 0; i < count; i++) {
      const type = this.u32();
      if (type > 4) throw new Unsupported();
      const account = type === 2 ? this.key() : this.entry();
      if (account !== null && accounts) accounts.push(account);
    }
  }

  readonly operationSponsored: boolean[] = [];

  operations(v2: boolean): string[][] {
    const count = this.u32();
    const out: string[][] = [];
    for (let i = 0; i < count; i++) {
      if (v2) this.emptyExt();
      const accounts: string[] = [];
      this.sponsored = false;
      this.changes(accounts);
      this.operationSponsored.push(this.sponsored);
      // OperationMetaV2 events are contract events: not scanned
      if (v2 && this.u32() !== 0) throw new Unsupported();
      out.push(accounts);
    }
    return out;
  }

  meta(): string[][] {
    const version = this.u32();
    if (version === 0) return this.operations(false);
    if (version > 4) throw new Unsupported();
    if (version >= 3) this.emptyExt();
    this.changes(null);
    const ops = this.operations(version === 4);
    if (version === 1) return ops;
    this.changes(null);
    if (version === 2) return ops;
    if (this.u32() !== 0) throw new Unsupported(); // sorobanMeta
    if (version === 4 && (this.u32() !== 0 || this.u32() !== 0)) throw new Unsupported(); // events
    return ops;
  }
}

/** A TransactionMeta at `pos`, or null when it holds entries this scanner does not know. */
export function scanTransactionMeta(buf: Buffer, pos: number): MetaScan | null {
  return scanOrNull(new MetaScanner(buf, pos), (s) => {
    const operationAccounts = s.meta();
    return { end: s.pos, operationAccounts, operationSponsored: s.operationSponsored };
  });
}

/** The end of LedgerEntryChanges at `pos`, or null when it holds entries this scanner does not know. */
export function scanChanges(buf: Buffer, pos: number): number | null {
  return scanOrNull(new MetaScanner(buf, pos), (s) => {
    s.changes(null);
    return s.pos;
  });
}
