// The GraphQL schema: every type file registers itself on the builder when imported.
import './scalars.js';
import './status.js';
import './ledger.js';
import './transaction.js';
import './operation.js';
import './effect.js';
import './account.js';
import './data_entry.js';
import './offer.js';
import './claimable_balance.js';
import './liquidity_pool.js';
import './trade.js';
import './fee_stats.js';
import './order_book.js';
import './trade_aggregation.js';
import './path.js';
import './asset_stat.js';
import './history_lists.js';
import { builder } from './builder.js';
import { fieldComplexity } from './complexity.js';

export const schema = builder.toSchema({ sortSchema: true, complexity: { fieldComplexity } });
