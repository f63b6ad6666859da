// GraphiQL at /graphql, from the installed @graphql-yoga/render-graphiql: the GraphiQL that yoga's
// own page loads from unpkg.com, with its script, styles, fonts and Monaco's workers inlined, so
// the page needs nothing but this server (a laptop without internet gets a working page).
// Subscriptions go over graphql-sse to /graphql/stream. The page is built once, on its first
// request, on a worker thread (graphiql_page.ts), gzipped there, revalidated by its ETag, and sent
// with a Content-Security-Policy that allows what it needs and nothing from outside.
import { type GraphiQLOptions, type Plugin, shouldRenderGraphiQL } from 'graphql-yoga';
import { rootKeypair } from '../stellar/index.js';
import { siblingModule, startModuleWorker } from '../support/module_worker.js';
import type { BuiltPage, PageRequest } from './graphiql_page.js';
import { GRAPHQL_SSE_ENDPOINT } from './graphql_sse.js';

/**
 * GraphiQL's tabs before the browser has any of its own: the nested views in one request each.
 * The account is written in the documents, not in variables: GraphiQL 5 leaves the first tab's
 * variables empty at the first visit.
 */
export function graphiqlTabs(networkPassphrase: string): { query: string }[] {
  const root = rootKeypair(networkPassphrase).publicKey();
  return [
    {
      query: `# An account with its balances, signers and offers, and its latest payments with their
# transactions and ledgers: one request (Horizon needs one per list and per payment).
# The account here is the network's root account, which funds the first accounts.
query Account {
  account(id: "${root}") {
    accountId
    sequence
    subentryCount
    balances { assetType assetCode assetIssuer balance limit }
    signers { key type weight }
    offers(first: 10) {
      edges { node { id amount price selling { assetType assetCode assetIssuer } buying { assetType assetCode assetIssuer } } }
    }
    payments(first: 5, order: desc) {
      edges {
        node {
          type
          createdAt
          ... on CreateAccountOperation { funder account startingBalance }
          ... on PaymentOperation { from to amount assetType assetCode assetIssuer }
          transaction { hash memo feeCharged ledger { sequence closedAt } }
        }
      }
    }
  }
}
`,
    },
    {
      query: `# The latest ledgers, newest first.
query LatestLedgers {
  ledgers(first: 5, order: desc) {
    edges { node { sequence hash closedAt transactionCount operationCount baseFeeInStroops } }
  }
}
`,
    },
    {
      query: `# The account's payments as their ledgers close (over graphql-sse at ${GRAPHQL_SSE_ENDPOINT});
# cursor "now": only new ones. Fund an account (/friendbot) to see one.
subscription Payments {
  payments(forAccount: "${root}", cursor: "now") {
    type
    createdAt
    ... on CreateAccountOperation { funder account startingBalance }
    ... on PaymentOperation { from to amount assetType assetCode assetIssuer }
    transaction { hash ledger { sequence closedAt } }
  }
}
`,
    },
  ];
}

/**
 * The page's options. `subscriptionsEndpoint` is no field of yoga's type but reaches the page's
 * executor (@graphql-tools/url-loader), which sends GRAPHQL_SSE subscriptions there.
 */
function graphiqlOptions(networkPassphrase: string): GraphiQLOptions & { subscriptionsEndpoint: string } {
  return {
    title: 'Zenith GraphiQL',
    subscriptionsProtocol: 'GRAPHQL_SSE',
    subscriptionsEndpoint: GRAPHQL_SSE_ENDPOINT,
    defaultTabs: graphiqlTabs(networkPassphrase),
  };
}

/** The page, from a worker thread that exits once it has answered. */
function buildPage(networkPassphrase: string): Promise<BuiltPage> {
  const request: PageRequest = { graphiqlOptions: graphiqlOptions(networkPassphrase) };
  return new Promise((resolve, reject) => {
    const worker = startModuleWorker(siblingModule('graphiql_page', import.meta.url), request);
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the GraphiQL page's worker exited (${code}) without the page`)));
  });
}

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  // revalidated each time: a new version of the server may serve another page
  'cache-control': 'no-cache',
  vary: 'Accept-Encoding',
};

/** Answers a browser's GET of /graphql with the page (yoga's own `graphiql` option must be off). */
export function graphiqlPage(networkPassphrase: string): Plugin {
  let page: Promise<BuiltPage> | undefined;
  const built = () =>
    (page ??= buildPage(networkPassphrase).catch((error: unknown) => {
      // the next request tries again
      page = undefined;
      throw error;
    }));
  return {
    onRequest({ request, url, fetchAPI, endResponse }) {
      if ((url.pathname !== '/graphql' && url.pathname !== '/graphql/') || !shouldRenderGraphiQL(request)) return;
      return built().then(({ html, gzipped, etag, policy }) => {
        const gzipAccepted = /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '');
        const tag = gzipAccepted ? `"${etag}-gzip"` : `"${etag}"`;
        const common = { ...PAGE_HEADERS, 'content-security-policy': policy, etag: tag };
        if (request.headers.get('if-none-match')?.includes(tag)) {
          endResponse(new fetchAPI.Response(null, { status: 304, headers: common }));
        } else if (gzipAccepted) {
          endResponse(new fetchAPI.Response(gzipped, { headers: { ...common, 'content-encoding': 'gzip' } }));
        } else {
          endResponse(new fetchAPI.Response(html, { headers: common }));
        }
      });
    },
  };
}
