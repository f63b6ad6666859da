// GraphiQL at /graphql, from the installed @graphql-yoga/render-graphiql: the GraphiQL that yoga's
// own page loads from unpkg.com, with its script, styles, fonts and Monaco's workers inlined, so
// the page needs nothing but this server (a laptop without internet gets a working page).
// Subscriptions go over graphql-sse to /graphql/stream. The page is built once, on its first
// request (the package is ~9 MB of strings, not loaded before), gzipped once, revalidated by its
// ETag, and sent with a Content-Security-Policy that allows what it needs and nothing from outside.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { type GraphiQLOptions, type Plugin, shouldRenderGraphiQL } from 'graphql-yoga';
import { rootKeypair } from '../stellar/index.js';
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

interface Page {
  html: Uint8Array<ArrayBuffer>;
  gzipped: Uint8Array<ArrayBuffer>;
  etag: string;
  headers: Record<string, string>;
}

/**
 * The policy of a page: its inline script by hash; styles inline ('unsafe-inline': Monaco and
 * GraphiQL add <style> elements and style attributes at run time, which no hash can name); fonts,
 * favicon and icons as data: URLs; Monaco's workers from the blob: URLs the page makes of their
 * inlined code; requests to this origin only.
 */
export function contentSecurityPolicy(html: string): string {
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (match) => `'sha256-${createHash('sha256').update(match[1]!).digest('base64')}'`,
  );
  return [
    "default-src 'none'",
    `script-src ${scripts.join(' ')}`,
    "style-src 'unsafe-inline'",
    'font-src data:',
    'img-src data:',
    'worker-src blob:',
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

async function buildPage(networkPassphrase: string): Promise<Page> {
  const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
  const text = renderGraphiQL(graphiqlOptions(networkPassphrase));
  // as Uint8Arrays over ArrayBuffers of their own, which a Response takes
  const html = new Uint8Array(Buffer.from(text));
  return {
    html,
    gzipped: new Uint8Array(await promisify(gzip)(html)),
    etag: createHash('sha256').update(html).digest('base64url').slice(0, 27),
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': contentSecurityPolicy(text),
      // revalidated each time: a new version of the server may serve another page
      'cache-control': 'no-cache',
      vary: 'Accept-Encoding',
    },
  };
}

/** Answers a browser's GET of /graphql with the page (yoga's own `graphiql` option must be off). */
export function graphiqlPage(networkPassphrase: string): Plugin {
  let page: Promise<Page> | undefined;
  return {
    onRequest({ request, url, fetchAPI, endResponse }) {
      if ((url.pathname !== '/graphql' && url.pathname !== '/graphql/') || !shouldRenderGraphiQL(request)) return;
      return (page ??= buildPage(networkPassphrase)).then(({ html, gzipped, etag, headers }) => {
        const gzipAccepted = /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '');
        const tag = gzipAccepted ? `"${etag}-gzip"` : `"${etag}"`;
        const common = { ...headers, etag: tag };
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
