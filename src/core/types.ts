// Public option and result shapes of the embedded core.
export interface CoreLogger {
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
  debug(obj: object | string, msg?: string): void;
}

export interface CoreOptions {
  /** folder for persistent state (uses <dataDir>/core/); null keeps everything in memory (tests) */
  dataDir: string | null;
  networkPassphrase: string;
  /** stroops; default 5_000_000 (0.5 XLM) */
  baseReserve?: number;
  /** stroops per operation; default 100 */
  baseFee?: number;
  /** operations per ledger; default 1000 */
  maxTxSetSize?: number;
  /** default 1000 ms */
  closeIntervalMs?: number;
  /** close only on closeLedger() / GET /manualclose */
  manualClose?: boolean;
  /** galexie-style datastore folder that receives every closed ledger */
  metaOutDir?: string;
  logger?: CoreLogger;
  /** ledgers between state snapshots (the meta log covers the rest); default 100 */
  snapshotInterval?: number;
  /** pending operations accepted before TRY_AGAIN_LATER; default 4 × maxTxSetSize */
  maxQueueOps?: number;
  /**
   * worker threads verifying the signatures of submitAsync's submissions (HTTP /tx); default one
   * fewer than the CPUs, 1 to 4; 0 verifies them on the main thread
   */
  verifyThreads?: number;
}

/** stellar-core's /tx answer. */
export type SubmitStatus = { status: 'PENDING' | 'DUPLICATE' | 'TRY_AGAIN_LATER' } | { status: 'ERROR'; error: string };

export interface ClosedLedgerSummary {
  sequence: number;
  hash: string;
  closeTime: number;
  txCount: number;
  /** per transaction, in apply order */
  results: { hash: string; code: string; feeCharged: bigint }[];
}

/** stellar-core's GET /info body (the fields this network has). */
export interface CoreInfo {
  info: {
    build: string;
    protocol_version: number;
    state: 'Synced!';
    startedOn: string;
    ledger: {
      num: number;
      hash: string;
      closeTime: number;
      version: number;
      baseFee: number;
      baseReserve: number;
      maxTxSetSize: number;
      age: number;
    };
    network: string;
    /** pending transactions in the queue */
    queue: { pending_count: number };
  };
}
