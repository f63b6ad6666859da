export { FRIENDBOT_STARTING_BALANCE, Friendbot, type FriendbotOptions, type FundOutcome } from './friendbot.js';
