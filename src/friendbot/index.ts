export { FRIENDBOT_STARTING_BALANCE, Friendbot, MAX_BATCH, type FriendbotOptions, type FundOutcome } from './friendbot.js';
export { friendbotHandler } from './handler.js';
