// An operation: what every operation has, then its type's own fields (as many as its type has,
// each shown by its value's kind: an account links to its page, an asset reads by its code,
// anything structured as JSON), and its effects.
import type { ComponentChildren } from 'preact';
import { operation, request } from '../api.js';
import { AccountLink, AssetLabel, Fields, LedgerLink, Load, LoadMore, Outcome, Problem, TransactionLink, Table } from '../components.js';
import { time } from '../format.js';
import { type Connection, usePages, useQuery } from '../hooks.js';
import document from '../../queries/operation.graphql';

const OPERATION = operation(document, 'Operation');
const OPERATION_EFFECTS = operation(document, 'OperationEffects');
const MAX_INT64 = 9_223_372_036_854_775_807n;

interface Effect {
  pagingToken: string;
  type: string;
  accountId: string;
}

interface Operation {
  __typename: string;
  pagingToken: string;
  type: string;
  createdAt: string;
  sourceAccount: string;
  sourceAccountMuxed: string | null;
  sponsor: string | null;
  transactionSuccessful: boolean;
  transaction: { hash: string; ledgerSequence: number };
  effects: Connection<Effect>;
  [detail: string]: unknown;
}

/** the fields every operation has, shown above its type's own */
const COMMON = new Set([
  '__typename',
  'pagingToken',
  'type',
  'createdAt',
  'sourceAccount',
  'sourceAccountMuxed',
  'sponsor',
  'transactionSuccessful',
  'transaction',
  'effects',
]);

export function OperationPage({ id }: { id: string }) {
  const valid = /^\d{1,19}$/.test(id) && BigInt(id) <= MAX_INT64;
  const loaded = useQuery<{ operation: Operation | null }>(OPERATION, valid ? { id } : null, id);
  return (
    <>
      <h1>
        Operation <code>{id}</code>
      </h1>
      {valid ? (
        <Load loaded={loaded}>
          {(data) => (data.operation ? <OperationView op={data.operation} /> : <Problem error={`Operation ${id} not found.`} />)}
        </Load>
      ) : (
        <Problem error={`“${id}” is not a valid operation id (a number).`} />
      )}
    </>
  );
}

function OperationView({ op }: { op: Operation }) {
  const effects = usePages<Effect>(op.effects, async (after) => {
    const data = await request<{ operation: Operation | null }>(OPERATION_EFFECTS, { id: op.pagingToken, after });
    return data.operation?.effects ?? null;
  });
  const details = Object.entries(op).filter(([name, value]) => !COMMON.has(name) && value !== null && value !== undefined);
  return (
    <>
      <Fields
        rows={[
          ['Type', op.type.replace(/_/g, ' ')],
          ['Transaction', <TransactionLink hash={op.transaction.hash} />],
          ['Result', <Outcome successful={op.transactionSuccessful} />],
          ['Ledger', <LedgerLink sequence={op.transaction.ledgerSequence} />],
          ['Closed', time(op.createdAt)],
          ['Source account', <AccountLink id={op.sourceAccount} />],
          op.sourceAccountMuxed !== null && ['Muxed source', <code class="key">{op.sourceAccountMuxed}</code>],
          op.sponsor !== null && ['Sponsor', <AccountLink id={op.sponsor} />],
        ]}
      />
      {details.length > 0 && (
        <section aria-labelledby="details-title">
          <h2 id="details-title">Details</h2>
          <Fields rows={details.map(([name, value]) => [label(name), shown(value)])} />
        </section>
      )}
      <section aria-labelledby="effects-title">
        <h2 id="effects-title">Effects</h2>
        {effects.nodes.length === 0 ? (
          <p>No effect.</p>
        ) : (
          <Table id="effects" columns={['Effect', 'Account']}>
            {effects.nodes.map((effect) => (
              <tr key={effect.pagingToken}>
                <td>{effect.type.replace(/_/g, ' ')}</td>
                <td>
                  <AccountLink id={effect.accountId} />
                </td>
              </tr>
            ))}
          </Table>
        )}
        <LoadMore pages={effects} label="effects" />
      </section>
    </>
  );
}

/** startingBalance → starting balance */
const label = (name: string): string => name.replace(/([A-Z])/g, ' $1').toLowerCase();

const isAsset = (value: unknown): value is { assetType: string } => typeof value === 'object' && value !== null && 'assetType' in value;

function shown(value: unknown): ComponentChildren {
  if (typeof value === 'string' && /^G[A-Z2-7]{55}$/.test(value)) return <AccountLink id={value} />;
  if (isAsset(value)) return <AssetLabel asset={value} />;
  if (Array.isArray(value) && value.every(isAsset)) {
    return value.length === 0
      ? '—'
      : value.map((asset, i) => (
          <span key={i}>
            {i > 0 && ' → '}
            <AssetLabel asset={asset} />
          </span>
        ));
  }
  if (typeof value === 'object') return <code class="json">{JSON.stringify(value)}</code>;
  return String(value);
}
