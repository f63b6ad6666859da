// A transaction: its outcome, ledger, source, fee and memo, and its operations (20 a page).
import { operation, request } from '../api.js';
import { AccountLink, Fields, LedgerLink, Link, Load, LoadMore, Outcome, Problem, TransactionLink, Table } from '../components.js';
import { time } from '../format.js';
import { type Connection, usePages, useQuery } from '../hooks.js';
import { paths } from '../router.js';
import transaction from '../../queries/transaction.graphql';

const TRANSACTION = operation(transaction, 'Transaction');
const TRANSACTION_OPERATIONS = operation(transaction, 'TransactionOperations');

interface OperationRow {
  pagingToken: string;
  type: string;
  sourceAccount: string;
}

interface Transaction {
  hash: string;
  successful: boolean;
  createdAt: string;
  ledger: { sequence: number; closedAt: string };
  sourceAccount: string;
  sourceAccountMuxed: string | null;
  sourceAccountSequence: string;
  feeAccount: string;
  feeCharged: string;
  maxFee: string;
  memoType: string;
  memo: string | null;
  operationCount: number;
  signatures: string[];
  feeBumpTransaction: { hash: string } | null;
  innerTransaction: { hash: string } | null;
  operations: Connection<OperationRow>;
}

export function TransactionPage({ hash }: { hash: string }) {
  const valid = /^[0-9a-f]{64}$/i.test(hash);
  const loaded = useQuery<{ transaction: Transaction | null }>(TRANSACTION, valid ? { hash } : null, hash);
  return (
    <>
      <h1>
        Transaction <code class="key">{hash}</code>
      </h1>
      {valid ? (
        <Load loaded={loaded}>
          {(data) => (data.transaction ? <TransactionView tx={data.transaction} /> : <Problem error={`Transaction ${hash} not found.`} />)}
        </Load>
      ) : (
        <Problem error={`“${hash}” is not a valid transaction hash (64 hexadecimal digits).`} />
      )}
    </>
  );
}

function TransactionView({ tx }: { tx: Transaction }) {
  const operations = usePages<OperationRow>(tx.operations, async (after) => {
    const data = await request<{ transaction: Transaction | null }>(TRANSACTION_OPERATIONS, { hash: tx.hash, after });
    return data.transaction?.operations ?? null;
  });
  return (
    <>
      <Fields
        rows={[
          ['Result', <Outcome successful={tx.successful} />],
          ['Ledger', <LedgerLink sequence={tx.ledger.sequence} />],
          ['Closed', time(tx.ledger.closedAt)],
          ['Source account', <AccountLink id={tx.sourceAccount} />],
          tx.sourceAccountMuxed !== null && ['Muxed source', <code class="key">{tx.sourceAccountMuxed}</code>],
          ['Sequence number', tx.sourceAccountSequence],
          ['Fee charged / max fee (stroops)', `${tx.feeCharged} / ${tx.maxFee}`],
          tx.feeAccount !== tx.sourceAccount && ['Fee account', <AccountLink id={tx.feeAccount} />],
          ['Memo', tx.memoType === 'none' ? 'none' : `${tx.memoType}: ${tx.memo ?? ''}`],
          ['Signatures', tx.signatures.length],
          tx.feeBumpTransaction !== null && ['Fee-bump transaction', <TransactionLink hash={tx.feeBumpTransaction.hash} />],
          tx.innerTransaction !== null && ['Inner transaction', <TransactionLink hash={tx.innerTransaction.hash} />],
        ]}
      />
      <section aria-labelledby="operations-title">
        <h2 id="operations-title">Operations ({tx.operationCount})</h2>
        <Table id="operations" columns={['Operation', 'Type', 'Source']}>
          {operations.nodes.map((op) => (
            <tr key={op.pagingToken}>
              <td>
                <Link href={paths.operation(op.pagingToken)}>{op.pagingToken}</Link>
              </td>
              <td>{op.type.replace(/_/g, ' ')}</td>
              <td>
                <AccountLink id={op.sourceAccount} />
              </td>
            </tr>
          ))}
        </Table>
        <LoadMore pages={operations} label="operations" />
      </section>
    </>
  );
}
