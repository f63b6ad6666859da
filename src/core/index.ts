export { Core, createCore } from './core.js';
export type { ClosedLedgerSummary, CoreInfo, CoreLogger, CoreOptions, SubmitStatus, TxOutcome } from './types.js';
export { PROTOCOL_VERSION } from './ledger/genesis.js';
export { coreHttpHandler } from './ledger/http.js';
export type { RequestListener } from './ledger/http.js';
export { FRIENDBOT_STARTING_BALANCE, Friendbot, FriendbotError, friendbotHandler } from './ledger/friendbot.js';
export type { FriendbotHandlerOptions, FundResult, Problem } from './ledger/friendbot.js';
