// Routing inside the page with the history API: every view has a URL under /explorer that the
// server answers with this same page (src/api/explorer.ts), so a deep link works on reload and
// the browser's back and forward buttons move between views without a new page load.
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/explorer';

export type Route =
  | { view: 'home' }
  | { view: 'account'; id: string }
  | { view: 'transaction'; hash: string }
  | { view: 'operation'; id: string }
  | { view: 'ledger'; sequence: string }
  | { view: 'assets'; code: string; issuer: string }
  | { view: 'orderBook'; selling: string; buying: string }
  | { view: 'send' }
  | { view: 'search'; query: string }
  | { view: 'missing'; path: string };

/** The view of a URL's path and query. */
export function routeOf(pathname: string, search: string): Route {
  const query = new URLSearchParams(search);
  if (pathname === '/' || pathname === BASE || pathname === `${BASE}/`) return { view: 'home' };
  const path = pathname.startsWith(`${BASE}/`) ? pathname.slice(BASE.length + 1).replace(/\/$/, '') : null;
  if (path === null) return { view: 'missing', path: pathname };
  const [section, key, ...rest] = path.split('/');
  const value = key === undefined ? undefined : safeDecode(key);
  if (rest.length === 0 && value !== undefined && value !== '') {
    if (section === 'accounts') return { view: 'account', id: value };
    if (section === 'transactions') return { view: 'transaction', hash: value };
    if (section === 'operations') return { view: 'operation', id: value };
    if (section === 'ledgers') return { view: 'ledger', sequence: value };
  }
  if (key === undefined) {
    if (section === 'assets') return { view: 'assets', code: query.get('code') ?? '', issuer: query.get('issuer') ?? '' };
    if (section === 'order-book') return { view: 'orderBook', selling: query.get('selling') ?? '', buying: query.get('buying') ?? '' };
    if (section === 'send') return { view: 'send' };
    if (section === 'search') return { view: 'search', query: query.get('q') ?? '' };
  }
  return { view: 'missing', path: pathname };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const part = encodeURIComponent;

/** the URL of a view */
export const paths = {
  home: () => `${BASE}/`,
  account: (id: string) => `${BASE}/accounts/${part(id)}`,
  transaction: (hash: string) => `${BASE}/transactions/${part(hash)}`,
  operation: (id: string) => `${BASE}/operations/${part(id)}`,
  ledger: (sequence: number | string) => `${BASE}/ledgers/${part(String(sequence))}`,
  assets: (code: string, issuer = '') => `${BASE}/assets?${new URLSearchParams(issuer ? { code, issuer } : { code })}`,
  orderBook: (selling = '', buying = '') => `${BASE}/order-book${selling || buying ? `?${new URLSearchParams({ selling, buying })}` : ''}`,
  send: () => `${BASE}/send`,
  search: (query: string) => `${BASE}/search?${new URLSearchParams({ q: query })}`,
};

const CHANGED = 'explorer:navigate';

/** Shows another view (a new history entry, or in place of this one with `replace`). */
export function navigate(url: string, replace = false): void {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  window.dispatchEvent(new Event(CHANGED));
  if (!replace) window.scrollTo(0, 0);
}

/** the view of the page's URL, following navigation */
export function useRoute(): Route {
  const current = () => routeOf(location.pathname, location.search);
  const [route, setRoute] = useState<Route>(current);
  useEffect(() => {
    const update = () => setRoute(current());
    window.addEventListener('popstate', update);
    window.addEventListener(CHANGED, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(CHANGED, update);
    };
  }, []);
  return route;
}
