// /explorer/search?q=…: the view of what was typed, in place of this one, or why there is none.
import { useEffect } from 'preact/hooks';
import { Problem } from '../components.js';
import { navigate, paths } from '../router.js';
import { classify, type Found } from '../search.js';

/** the view a search leads to, or null */
export function searchTarget(found: Found): string | null {
  switch (found.kind) {
    case 'account':
    case 'muxed':
      return paths.account(found.id);
    case 'transaction':
      return paths.transaction(found.hash);
    case 'ledger':
      return paths.ledger(found.sequence);
    case 'operation':
      return paths.operation(found.id);
    case 'asset':
      return paths.assets(found.code, found.issuer);
    case 'invalid':
      return null;
  }
}

export function SearchPage({ query }: { query: string }) {
  const found = classify(query);
  const target = searchTarget(found);
  useEffect(() => {
    if (target) navigate(target, true);
  }, [target]);
  return (
    <>
      <h1>Search</h1>
      {found.kind === 'invalid' && <Problem error={found.message} />}
    </>
  );
}
