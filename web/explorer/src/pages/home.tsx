// The front page: the newest ledgers and transactions, each new one arriving through a GraphQL
// subscription from the newest one the first query read (so nothing between the two is missed).
import { useRef, useState } from 'preact/hooks';
import { operation } from '../api.js';
import { AccountLink, LedgerLink, LiveStatus, Load, Outcome, TransactionLink, Table } from '../components.js';
import { time } from '../format.js';
import { useQuery, useSubscription } from '../hooks.js';
import home from '../../queries/home.graphql';

const HOME = operation(home, 'Home');
const NEW_LEDGERS = operation(home, 'NewLedgers');
const NEW_TRANSACTIONS = operation(home, 'NewTransactions');
/** rows each table keeps */
const SHOWN = 10;

interface LedgerRow {
  sequence: number;
  pagingToken: string;
  closedAt: string;
  successfulTransactionCount: number;
  failedTransactionCount: number;
  operationCount: number;
}

export interface TransactionRow {
  hash: string;
  pagingToken: string;
  ledgerSequence: number;
  createdAt: string;
  sourceAccount: string;
  operationCount: number;
  successful: boolean;
}

interface HomeData {
  ledgers: { edges: { node: LedgerRow }[] };
  transactions: { edges: { node: TransactionRow }[] };
}

export function Home() {
  const loaded = useQuery<HomeData>(HOME, {}, 'home');
  return (
    <>
      <h1>Network</h1>
      <Load loaded={loaded}>{(data) => <Latest data={data} />}</Load>
    </>
  );
}

function Latest({ data }: { data: HomeData }) {
  const [ledgers, setLedgers] = useState(() => data.ledgers.edges.map((edge) => edge.node));
  const [transactions, setTransactions] = useState(() => data.transactions.edges.map((edge) => edge.node));
  // after the newest seen (first, the newest read: a ledger's own transactions come after its paging token)
  const cursors = useRef({
    ledger: ledgers[0]?.pagingToken ?? 'now',
    transaction: transactions[0]?.pagingToken ?? ledgers[0]?.pagingToken ?? 'now',
  });
  const ledgersLive = useSubscription<{ ledgers: LedgerRow }>(
    NEW_LEDGERS,
    () => ({ cursor: cursors.current.ledger }),
    ({ ledgers: ledger }) => {
      cursors.current.ledger = ledger.pagingToken;
      setLedgers((shown) => [ledger, ...shown].slice(0, SHOWN));
    },
  );
  const transactionsLive = useSubscription<{ transactions: TransactionRow }>(
    NEW_TRANSACTIONS,
    () => ({ cursor: cursors.current.transaction }),
    ({ transactions: tx }) => {
      cursors.current.transaction = tx.pagingToken;
      setTransactions((shown) => [tx, ...shown].slice(0, SHOWN));
    },
  );
  return (
    <>
      <LiveStatus live={ledgersLive.error ? ledgersLive : transactionsLive} />
      <div class="columns">
        <section aria-labelledby="ledgers-title">
          <h2 id="ledgers-title">Latest ledgers</h2>
          {ledgers.length === 0 ? (
            <p>No ledger yet.</p>
          ) : (
            <Table id="ledgers" columns={['Ledger', 'Closed', 'Transactions', 'Operations']}>
              {ledgers.map((ledger) => (
                <tr key={ledger.sequence} data-ledger={ledger.sequence}>
                  <td>
                    <LedgerLink sequence={ledger.sequence} />
                  </td>
                  <td>{time(ledger.closedAt)}</td>
                  <td>
                    {ledger.successfulTransactionCount}
                    {ledger.failedTransactionCount > 0 && ` (+${ledger.failedTransactionCount} failed)`}
                  </td>
                  <td>{ledger.operationCount}</td>
                </tr>
              ))}
            </Table>
          )}
        </section>
        <section aria-labelledby="transactions-title">
          <h2 id="transactions-title">Latest transactions</h2>
          {transactions.length === 0 ? <p>No transaction yet.</p> : <TransactionTable transactions={transactions} id="transactions" />}
        </section>
      </div>
    </>
  );
}

/** transactions as rows (the front page's and a ledger's) */
export function TransactionTable({ transactions, id }: { transactions: TransactionRow[]; id?: string }) {
  return (
    <Table id={id} columns={['Transaction', 'Ledger', 'Source', 'Operations', 'Result']}>
      {transactions.map((tx) => (
        <tr key={tx.hash} data-transaction={tx.hash}>
          <td>
            <TransactionLink hash={tx.hash} />
          </td>
          <td>
            <LedgerLink sequence={tx.ledgerSequence} />
          </td>
          <td>
            <AccountLink id={tx.sourceAccount} />
          </td>
          <td>{tx.operationCount}</td>
          <td>
            <Outcome successful={tx.successful} />
          </td>
        </tr>
      ))}
    </Table>
  );
}
