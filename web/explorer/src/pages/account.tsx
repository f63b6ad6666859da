// An account: its state (balances, signers, thresholds, flags, data), its open offers and its
// recent payments with their transactions and ledgers, all from one GraphQL request; "load more"
// reads the next page of a connection. New payments arrive through a subscription, and each
// brings the account's state again (balances changed). A muxed account (M…) shows its account.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { type ApiError, friendbotUrl, fund, operation, request } from '../api.js';
import {
  AccountLink,
  AssetLabel,
  Fields,
  LedgerLink,
  LiveStatus,
  Load,
  LoadMore,
  Outcome,
  Problem,
  TransactionLink,
  Table,
} from '../components.js';
import { amount, time } from '../format.js';
import { asApiError, type Connection, type Loaded, usePages, useQuery, useSubscription } from '../hooks.js';
import { demux } from '../sdk.js';
import account from '../../queries/account.graphql';

const ACCOUNT = operation(account, 'Account');
const ACCOUNT_STATE = operation(account, 'AccountState');
const ACCOUNT_PAYMENTS = operation(account, 'AccountPayments');
const ACCOUNT_OFFERS = operation(account, 'AccountOffers');
const PAYMENTS_LIVE = operation(account, 'AccountPaymentsLive');

interface Asset {
  assetType: string;
  assetCode: string | null;
  assetIssuer: string | null;
}

interface Offer {
  pagingToken: string;
  amount: string;
  price: string;
  selling: Asset;
  buying: Asset;
}

export interface Payment {
  __typename: string;
  pagingToken: string;
  type: string;
  sourceAccount: string;
  transactionSuccessful: boolean;
  transaction: { hash: string; memoType: string; memo: string | null; ledger: { sequence: number; closedAt: string } };
  funder?: string;
  account?: string;
  startingBalance?: string;
  from?: string;
  to?: string;
  amount?: string;
  assetType?: string;
  assetCode?: string | null;
  assetIssuer?: string | null;
  into?: string;
}

interface AccountState {
  accountId: string;
  sequence: string;
  subentryCount: number;
  homeDomain: string;
  sponsor: string | null;
  numSponsoring: number;
  numSponsored: number;
  lastModifiedLedger: number;
  thresholds: { lowThreshold: number; medThreshold: number; highThreshold: number };
  flags: { authRequired: boolean; authRevocable: boolean; authImmutable: boolean; authClawbackEnabled: boolean };
  balances: (Asset & {
    liquidityPoolId: string | null;
    balance: string;
    limit: string | null;
    buyingLiabilities: string | null;
    sellingLiabilities: string | null;
  })[];
  signers: { key: string; type: string; weight: number }[];
  data: Record<string, string>;
  offers: Connection<Offer>;
}

interface AccountData {
  account: (AccountState & { payments: Connection<Payment> }) | null;
}

/** G… as it is; M… as its account, once the SDK read it */
type Resolved = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'done'; accountId: string; muxedId: string | null };

export function AccountPage({ id }: { id: string }) {
  const [resolved, setResolved] = useState<Resolved>(() =>
    id.startsWith('M') ? { state: 'loading' } : { state: 'done', accountId: id, muxedId: null },
  );
  useEffect(() => {
    if (!id.startsWith('M')) return;
    demux(id).then(
      (found) =>
        setResolved(
          found ? { state: 'done', ...found, muxedId: found.id } : { state: 'failed', message: `“${id}” is not a valid muxed account.` },
        ),
      (error: unknown) => setResolved({ state: 'failed', message: asApiError(error).message }),
    );
  }, [id]);
  const accountId = resolved.state === 'done' ? resolved.accountId : null;
  const loaded = useQuery<AccountData>(ACCOUNT, accountId === null ? null : { id: accountId }, accountId ?? '');
  return (
    <>
      <h1>
        Account <code class="key">{id}</code>
      </h1>
      {resolved.state === 'failed' && <Problem error={resolved.message} />}
      {resolved.state === 'done' && resolved.muxedId !== null && (
        <p class="note">
          A muxed account: id {resolved.muxedId} of the account <AccountLink id={resolved.accountId} />.
        </p>
      )}
      {resolved.state === 'loading' ? (
        <p class="loading" aria-busy="true">
          Loading…
        </p>
      ) : (
        accountId !== null && <AccountLoaded id={accountId} loaded={loaded} />
      )}
    </>
  );
}

function AccountLoaded({ id, loaded }: { id: string; loaded: Loaded<AccountData> }) {
  if (loaded.state === 'failed' && loaded.error.code === 'bad_request') {
    return <Problem error={`“${id}” is not a valid account id (G… with a valid checksum).`} />;
  }
  return <Load loaded={loaded}>{(data) => (data.account ? <AccountView account={data.account} /> : <AccountMissing id={id} />)}</Load>;
}

function AccountMissing({ id }: { id: string }) {
  const [funding, setFunding] = useState<
    { state: 'idle' | 'busy' } | { state: 'done'; hash: string } | { state: 'failed'; error: ApiError }
  >({
    state: 'idle',
  });
  return (
    <>
      <Problem error={`Account ${id} not found: it was never created, or it was merged into another.`} />
      {friendbotUrl() && funding.state !== 'done' && (
        <button
          type="button"
          disabled={funding.state === 'busy'}
          onClick={() => {
            setFunding({ state: 'busy' });
            fund(id).then(
              (hash) => setFunding({ state: 'done', hash }),
              (error: unknown) => setFunding({ state: 'failed', error: asApiError(error) }),
            );
          }}
        >
          {funding.state === 'busy' ? 'Funding…' : 'Create it with the friendbot'}
        </button>
      )}
      {funding.state === 'failed' && <Problem error={funding.error} />}
      {funding.state === 'done' && (
        <p role="status">
          Funded by transaction <TransactionLink hash={funding.hash} />. <a href={location.pathname}>Show the account</a>
        </p>
      )}
    </>
  );
}

function AccountView({ account: first }: { account: NonNullable<AccountData['account']> }) {
  const id = first.accountId;
  const [state, setState] = useState<AccountState>(first);
  const payments = usePages<Payment>(first.payments, async (after) => {
    const data = await request<AccountData>(ACCOUNT_PAYMENTS, { id, after });
    return data.account?.payments ?? null;
  });
  const offers = usePages<Offer>(first.offers, async (after) => {
    const data = await request<AccountData>(ACCOUNT_OFFERS, { id, after });
    return data.account?.offers ?? null;
  });
  // the state read again after new payments: one request at a time, the last one wins
  const refreshing = useRef<{ busy: boolean; again: boolean }>({ busy: false, again: false });
  const [stateError, setStateError] = useState<ApiError | null>(null);
  const refresh = () => {
    if (refreshing.current.busy) {
      refreshing.current.again = true;
      return;
    }
    refreshing.current.busy = true;
    request<{ account: AccountState | null }>(ACCOUNT_STATE, { id })
      .then(
        (data) => {
          if (data.account) setState(data.account);
          setStateError(null);
        },
        (error: unknown) => setStateError(asApiError(error)),
      )
      .finally(() => {
        refreshing.current.busy = false;
        if (refreshing.current.again) {
          refreshing.current.again = false;
          refresh();
        }
      });
  };
  // after the newest payment seen (first, the newest read)
  const cursor = useRef(first.payments.edges[0]?.node.pagingToken ?? 'now');
  const live = useSubscription<{ payments: Payment }>(
    PAYMENTS_LIVE,
    () => ({ id, cursor: cursor.current }),
    ({ payments: payment }) => {
      cursor.current = payment.pagingToken;
      payments.prepend(payment);
      refresh();
    },
  );

  const { thresholds, flags } = state;
  const flagNames = Object.entries(flags)
    .filter(([, set]) => set)
    .map(([name]) => name);
  const data = Object.entries(state.data ?? {});
  return (
    <>
      <Fields
        rows={[
          ['Sequence', state.sequence],
          ['Subentries', state.subentryCount],
          ['Home domain', state.homeDomain || '—'],
          ['Thresholds (low / medium / high)', `${thresholds.lowThreshold} / ${thresholds.medThreshold} / ${thresholds.highThreshold}`],
          ['Flags', flagNames.length ? flagNames.join(', ') : 'none'],
          ['Sponsor', state.sponsor ? <AccountLink id={state.sponsor} /> : '—'],
          ['Sponsoring / sponsored', `${state.numSponsoring} / ${state.numSponsored}`],
          ['Last modified in ledger', <LedgerLink sequence={state.lastModifiedLedger} />],
        ]}
      />
      {stateError && <Problem error={stateError} />}

      <section aria-labelledby="balances-title">
        <h2 id="balances-title">Balances</h2>
        <Table id="balances" columns={['Asset', 'Balance', 'Limit', 'Liabilities (buying / selling)']}>
          {state.balances.map((balance) => (
            <tr key={`${balance.assetType}:${balance.assetCode}:${balance.assetIssuer}:${balance.liquidityPoolId}`}>
              <td>
                <AssetLabel asset={balance} />
              </td>
              <td class="number">{amount(balance.balance)}</td>
              <td class="number">{balance.limit ? amount(balance.limit) : '—'}</td>
              <td class="number">
                {balance.buyingLiabilities ? `${amount(balance.buyingLiabilities)} / ${amount(balance.sellingLiabilities)}` : '—'}
              </td>
            </tr>
          ))}
        </Table>
      </section>

      <section aria-labelledby="signers-title">
        <h2 id="signers-title">Signers</h2>
        <Table id="signers" columns={['Key', 'Type', 'Weight']}>
          {state.signers.map((signer) => (
            <tr key={signer.key}>
              <td>
                <code class="key">{signer.key}</code>
              </td>
              <td>{signer.type}</td>
              <td class="number">{signer.weight}</td>
            </tr>
          ))}
        </Table>
      </section>

      <section aria-labelledby="offers-title">
        <h2 id="offers-title">Open offers</h2>
        {offers.nodes.length === 0 ? (
          <p>No open offer.</p>
        ) : (
          <Table id="offers" columns={['Offer', 'Selling', 'Buying', 'Amount', 'Price']}>
            {offers.nodes.map((offer) => (
              <tr key={offer.pagingToken}>
                <td>{offer.pagingToken}</td>
                <td>
                  <AssetLabel asset={offer.selling} />
                </td>
                <td>
                  <AssetLabel asset={offer.buying} />
                </td>
                <td class="number">{amount(offer.amount)}</td>
                <td class="number">{amount(offer.price)}</td>
              </tr>
            ))}
          </Table>
        )}
        <LoadMore pages={offers} label="offers" />
      </section>

      {data.length > 0 && (
        <section aria-labelledby="data-title">
          <h2 id="data-title">Data entries</h2>
          <Fields rows={data.map(([name, value]) => [name, <code>{value}</code>])} />
        </section>
      )}

      <section aria-labelledby="payments-title">
        <h2 id="payments-title">Payments</h2>
        <LiveStatus live={live} />
        {payments.nodes.length === 0 ? <p>No payment in the history.</p> : <PaymentTable payments={payments.nodes} owner={id} />}
        <LoadMore pages={payments} label="payments" />
      </section>
    </>
  );
}

function PaymentTable({ payments, owner }: { payments: Payment[]; owner: string }) {
  return (
    <Table id="payments" columns={['Ledger', 'Closed', 'Type', 'From', 'To', 'Amount', 'Transaction', 'Result']}>
      {payments.map((payment) => {
        const { from, to, value } = parties(payment);
        return (
          <tr key={payment.pagingToken} data-payment={payment.pagingToken} class={to === owner ? 'in' : 'out'}>
            <td>
              <LedgerLink sequence={payment.transaction.ledger.sequence} />
            </td>
            <td>{time(payment.transaction.ledger.closedAt)}</td>
            <td>{payment.type.replace(/_/g, ' ')}</td>
            <td>
              <AccountLink id={from} />
            </td>
            <td>
              <AccountLink id={to} />
            </td>
            <td class="number">{value}</td>
            <td>
              <TransactionLink hash={payment.transaction.hash} />
              {payment.transaction.memo && <small class="memo"> memo: {payment.transaction.memo}</small>}
            </td>
            <td>
              <Outcome successful={payment.transactionSuccessful} />
            </td>
          </tr>
        );
      })}
    </Table>
  );
}

/** who paid whom what, for each payment-like type */
function parties(payment: Payment): { from: string | undefined; to: string | undefined; value: ComponentChildren } {
  switch (payment.__typename) {
    case 'CreateAccountOperation':
      return { from: payment.funder, to: payment.account, value: `${amount(payment.startingBalance)} XLM` };
    case 'AccountMergeOperation':
      return { from: payment.account, to: payment.into, value: 'all its lumens' };
    default:
      return {
        from: payment.from,
        to: payment.to,
        value: (
          <>
            {amount(payment.amount)} <AssetLabel asset={payment as Asset} />
          </>
        ),
      };
  }
}
