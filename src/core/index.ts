export { Core, createCore } from './core.js';
export type { ClosedLedgerSummary, CoreInfo, CoreLogger, CoreOptions, SubmitStatus } from './types.js';
export { PROTOCOL_VERSION } from './ledger/genesis.js';
export { coreHttpHandler } from './ledger/http.js';
export type { RequestListener } from './ledger/http.js';
