// The pieces every view is made of: links that move within the page, the loading and failure
// states, "load more", and the live-updates line.
import type { ComponentChildren } from 'preact';
import type { ApiError } from './api.js';
import { type AssetFields, assetName, short } from './format.js';
import type { Loaded, Pages } from './hooks.js';
import { navigate, paths } from './router.js';

/** A link to another view of the page, followed without loading the page again. */
export function Link({ href, children, title }: { href: string; children: ComponentChildren; title?: string }) {
  return (
    <a
      href={href}
      title={title}
      onClick={(event) => {
        // a new tab or window is the browser's business
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}

export function AccountLink({ id }: { id: string | null | undefined }) {
  if (!id) return null;
  return (
    <Link href={paths.account(id)} title={id}>
      <code>{short(id)}</code>
    </Link>
  );
}

export function TransactionLink({ hash }: { hash: string }) {
  return (
    <Link href={paths.transaction(hash)} title={hash}>
      <code>{short(hash)}</code>
    </Link>
  );
}

export function LedgerLink({ sequence }: { sequence: number | string }) {
  return <Link href={paths.ledger(sequence)}>{String(sequence)}</Link>;
}

/** an asset by its code, with its issuer's link */
export function AssetLabel({ asset }: { asset: AssetFields }) {
  if (asset.assetType === 'native' || !asset.assetIssuer) return <span>{assetName(asset)}</span>;
  return (
    <span>
      {assetName(asset)} <small>by</small> <AccountLink id={asset.assetIssuer} />
    </span>
  );
}

export function Problem({ error }: { error: ApiError | string }) {
  return (
    <p class="problem" role="alert">
      {typeof error === 'string' ? error : error.message}
    </p>
  );
}

/** The view's data once loaded; meanwhile a loading line, and a failure's message in its place. */
export function Load<T>({ loaded, children }: { loaded: Loaded<T>; children: (data: T) => ComponentChildren }) {
  if (loaded.state === 'loading') {
    return (
      <p class="loading" aria-busy="true">
        Loading…
      </p>
    );
  }
  if (loaded.state === 'failed') return <Problem error={loaded.error} />;
  return <>{children(loaded.data)}</>;
}

export function LoadMore<N>({ pages, label }: { pages: Pages<N>; label: string }) {
  return (
    <>
      {pages.error && <Problem error={pages.error} />}
      {pages.hasMore && (
        <button type="button" class="more" onClick={pages.loadMore} disabled={pages.loading}>
          {pages.loading ? 'Loading…' : `Load more ${label}`}
        </button>
      )}
    </>
  );
}

/** whether a view's subscription is running, or why it stopped (with a way to restart it) */
export function LiveStatus({ live }: { live: { error: ApiError | null; restart(): void } }) {
  if (!live.error) {
    return (
      <p class="live" aria-live="polite">
        <span class="dot" aria-hidden="true" /> Live
      </p>
    );
  }
  return (
    <p class="live stopped" role="status">
      {live.error.message}{' '}
      <button type="button" onClick={live.restart}>
        Reconnect
      </button>
    </p>
  );
}

/** a list of named values (a row that is false or null is left out) */
export function Fields({ rows }: { rows: ([string, ComponentChildren] | false | null)[] }) {
  return (
    <dl class="fields">
      {rows
        .filter((row) => row !== false && row !== null)
        .map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}

/** a successful or failed outcome, in words (not in colour alone) */
export function Outcome({ successful }: { successful: boolean }) {
  return <span class={successful ? 'ok' : 'failed'}>{successful ? 'success' : 'failed'}</span>;
}

/** a table with a header row of these columns; `children` are its body's rows */
export function Table({ id, columns, children }: { id?: string | undefined; columns: string[]; children: ComponentChildren }) {
  return (
    <table id={id}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col" key={column}>
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
