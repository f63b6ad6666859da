// A typed client of Zenith's GraphQL API: the nested account view in one request, and an
// account's payments as a subscription over graphql-sse. The documents are examples/*.graphql; their
// result and variables types are generated from schema.graphql into generated/ (examples/README.md).
//
//   npx tsx examples/client.ts http://localhost:8000 G...   (an account: its view, then its payments as they come)
import { pathToFileURL } from 'node:url';
import { createClient } from 'graphql-sse';
import {
  type AccountViewQuery,
  AccountViewDocument,
  type PaymentFragment,
  type PaymentsSubscription,
  PaymentsDocument,
  type TypedDocumentString,
} from './generated/graphql.js';

/** an error of an answer: `extensions.code` names the problem (bad_request, not_found, …) */
interface AnswerError {
  message: string;
  extensions?: Record<string, unknown>;
}

export class GraphQLRequestError extends Error {
  constructor(readonly errors: readonly AnswerError[]) {
    super(errors.map((error) => `${String(error.extensions?.code ?? 'error')}: ${error.message}`).join('; '));
  }
}

interface Answer<TResult> {
  data?: TResult | null;
  errors?: AnswerError[];
}

/** Runs a query or mutation at `${url}/graphql`: its data, typed by the document. */
export async function request<TResult, TVariables>(
  url: string,
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
): Promise<TResult> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
    body: JSON.stringify({ query: document.toString(), variables }),
  });
  const answer = (await response.json()) as Answer<TResult>;
  if (answer.errors?.length) throw new GraphQLRequestError(answer.errors);
  if (!answer.data) throw new Error(`no data in the answer (HTTP ${response.status})`);
  return answer.data;
}

/** An account with its balances, signers, offers and latest payments (with their transactions and ledgers); null if it does not exist. */
export async function accountView(url: string, id: string, payments = 10): Promise<AccountViewQuery['account']> {
  return (await request(url, AccountViewDocument, { id, payments })).account;
}

/**
 * An account's payments as their ledgers are ingested, after `cursor` ("now": only new ones).
 * Leaving the loop (break, return, an exception) closes the stream.
 */
export async function* followPayments(url: string, account: string, cursor = 'now'): AsyncGenerator<PaymentsSubscription['payments']> {
  const client = createClient({ url: `${url}/graphql/stream` });
  try {
    const events = client.iterate<PaymentsSubscription>({ query: PaymentsDocument.toString(), variables: { account, cursor } });
    for await (const event of events) {
      if (event.errors?.length) throw new GraphQLRequestError(event.errors);
      if (event.data) yield event.data.payments;
    }
  } finally {
    client.dispose();
  }
}

/** One line for a payment: the union's __typename tells which fields it has. */
export function describePayment(payment: PaymentFragment): string {
  const where = `ledger ${payment.transaction.ledger.sequence}, transaction ${payment.transaction.hash.slice(0, 8)}…`;
  switch (payment.__typename) {
    case 'CreateAccountOperation':
      return `${payment.funder} created ${payment.account} with ${payment.startingBalance} XLM (${where})`;
    case 'PaymentOperation':
      return `${payment.from} paid ${payment.to} ${payment.amount} ${payment.assetCode ?? 'XLM'} (${where})`;
    default:
      return `${payment.type} (${where})`;
  }
}

async function main(url: string, account: string): Promise<void> {
  const view = await accountView(url, account);
  if (!view) throw new Error(`no account ${account}`);
  console.log(`${view.accountId}: sequence ${view.sequence}, ${view.signers.length} signer(s), ${view.offers.edges.length} offer(s)`);
  for (const balance of view.balances) console.log(`  ${balance.balance} ${balance.assetCode ?? 'XLM'}`);
  for (const { node } of view.payments.edges) console.log(`  ${describePayment(node)}`);
  console.log('following its payments (Ctrl-C to stop)…');
  for await (const payment of followPayments(url, account)) console.log(`  ${describePayment(payment)}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [url, account] = process.argv.slice(2);
  if (!url || !account) {
    console.error('usage: npx tsx examples/client.ts <API URL> <G... account id>');
    process.exit(2);
  }
  main(url, account).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
