// The page: a header with the search box and the views' links, and the view of the URL. Each
// navigation opens its view afresh (keyed by the URL), which ends the previous view's requests
// and subscriptions.
import { friendbotUrl } from './api.js';
import { Link } from './components.js';
import { AccountPage } from './pages/account.js';
import { AssetsPage } from './pages/assets.js';
import { Home } from './pages/home.js';
import { LedgerPage } from './pages/ledger.js';
import { MissingPage } from './pages/missing.js';
import { OperationPage } from './pages/operation.js';
import { OrderBookPage } from './pages/order_book.js';
import { SearchPage } from './pages/search.js';
import { SendPage } from './pages/send.js';
import { TransactionPage } from './pages/transaction.js';
import { navigate, paths, type Route, useRoute } from './router.js';
import { SEARCH_HINT } from './search.js';

export function App() {
  const route = useRoute();
  return (
    <>
      <a class="skip" href="#main">
        Skip to the content
      </a>
      <header>
        <Link href={paths.home()}>
          <strong>Zenith</strong> explorer
        </Link>
        <nav aria-label="Views">
          <Link href={paths.home()}>Latest</Link>
          <Link href={paths.orderBook()}>Order book</Link>
          {friendbotUrl() && <Link href={paths.send()}>Send</Link>}
        </nav>
        <search>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              const input = event.currentTarget.elements.namedItem('q') as HTMLInputElement;
              navigate(paths.search(input.value));
            }}
          >
            <label for="search">Search</label>
            <input id="search" name="q" type="search" placeholder={SEARCH_HINT} autoComplete="off" spellcheck={false} />
            <button type="submit">Go</button>
          </form>
        </search>
      </header>
      <main id="main" key={`${location.pathname}${location.search}`}>
        <View route={route} />
      </main>
    </>
  );
}

function View({ route }: { route: Route }) {
  switch (route.view) {
    case 'home':
      return <Home />;
    case 'account':
      return <AccountPage id={route.id} />;
    case 'transaction':
      return <TransactionPage hash={route.hash} />;
    case 'operation':
      return <OperationPage id={route.id} />;
    case 'ledger':
      return <LedgerPage sequence={route.sequence} />;
    case 'assets':
      return <AssetsPage code={route.code} issuer={route.issuer} />;
    case 'orderBook':
      return <OrderBookPage selling={route.selling} buying={route.buying} />;
    case 'send':
      return <SendPage />;
    case 'search':
      return <SearchPage query={route.query} />;
    case 'missing':
      return <MissingPage path={route.path} />;
  }
}
