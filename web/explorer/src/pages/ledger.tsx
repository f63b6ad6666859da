// A ledger: its header's figures and its transactions (20 a page).
import { operation, request } from '../api.js';
import { Fields, LedgerLink, Load, LoadMore, Problem } from '../components.js';
import { amount, time } from '../format.js';
import { type Connection, usePages, useQuery } from '../hooks.js';
import { TransactionTable, type TransactionRow } from './home.js';
import document from '../../queries/ledger.graphql';

const LEDGER = operation(document, 'Ledger');
const LEDGER_TRANSACTIONS = operation(document, 'LedgerTransactions');
const MAX_LEDGER = 2_147_483_647;

interface Ledger {
  sequence: number;
  hash: string;
  prevHash: string | null;
  closedAt: string;
  protocolVersion: number;
  successfulTransactionCount: number;
  failedTransactionCount: number;
  operationCount: number;
  txSetOperationCount: number;
  totalCoins: string;
  feePool: string;
  baseFeeInStroops: number;
  baseReserveInStroops: number;
  maxTxSetSize: number;
  transactions: Connection<TransactionRow>;
}

export function LedgerPage({ sequence }: { sequence: string }) {
  const value = /^\d{1,10}$/.test(sequence) ? Number(sequence) : Number.NaN;
  const valid = value >= 1 && value <= MAX_LEDGER;
  const loaded = useQuery<{ ledger: Ledger | null }>(LEDGER, valid ? { sequence: value } : null, sequence);
  return (
    <>
      <h1>
        Ledger <code>{sequence}</code>
      </h1>
      {valid ? (
        <Load loaded={loaded}>
          {(data) =>
            data.ledger ? <LedgerView ledger={data.ledger} /> : <Problem error={`Ledger ${sequence} not found in the history.`} />
          }
        </Load>
      ) : (
        <Problem error={`“${sequence}” is not a valid ledger sequence (a number from 1 to ${MAX_LEDGER}).`} />
      )}
    </>
  );
}

function LedgerView({ ledger }: { ledger: Ledger }) {
  const transactions = usePages<TransactionRow>(ledger.transactions, async (after) => {
    const data = await request<{ ledger: Ledger | null }>(LEDGER_TRANSACTIONS, { sequence: ledger.sequence, after });
    return data.ledger?.transactions ?? null;
  });
  return (
    <>
      <Fields
        rows={[
          ['Closed', time(ledger.closedAt)],
          ['Hash', <code class="key">{ledger.hash}</code>],
          ledger.sequence > 1 && ['Previous ledger', <LedgerLink sequence={ledger.sequence - 1} />],
          ['Next ledger', <LedgerLink sequence={ledger.sequence + 1} />],
          ['Protocol version', ledger.protocolVersion],
          ['Transactions (successful / failed)', `${ledger.successfulTransactionCount} / ${ledger.failedTransactionCount}`],
          ['Operations (successful / in the set)', `${ledger.operationCount} / ${ledger.txSetOperationCount}`],
          ['Total lumens', amount(ledger.totalCoins)],
          ['Fee pool (XLM)', amount(ledger.feePool)],
          ['Base fee / base reserve (stroops)', `${ledger.baseFeeInStroops} / ${ledger.baseReserveInStroops}`],
          ['Max transaction set size', ledger.maxTxSetSize],
        ]}
      />
      <section aria-labelledby="ledger-transactions-title">
        <h2 id="ledger-transactions-title">Transactions</h2>
        {transactions.nodes.length === 0 ? (
          <p>No transaction.</p>
        ) : (
          <TransactionTable transactions={transactions.nodes} id="ledger-transactions" />
        )}
        <LoadMore pages={transactions} label="transactions" />
      </section>
    </>
  );
}
