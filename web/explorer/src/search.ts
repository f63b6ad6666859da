// What the search box was given, by its shape alone: the view to show, or why it is none. Whether
// the thing exists (and a key's checksum) is the server's to say, on the view's page. Nothing here
// touches the DOM, so test/web/explorer_search.test.ts runs it in Node.

export type Found =
  | { kind: 'account'; id: string }
  | { kind: 'muxed'; id: string }
  | { kind: 'transaction'; hash: string }
  | { kind: 'ledger'; sequence: string }
  | { kind: 'operation'; id: string }
  | { kind: 'asset'; code: string; issuer: string }
  | { kind: 'invalid'; message: string };

const BASE32 = /^[A-Z2-7]+$/;
/** the largest ledger sequence GraphQL's Int takes (2^31 - 1) */
const MAX_LEDGER = 2_147_483_647n;
const MAX_INT64 = 9_223_372_036_854_775_807n;
const ASSET_CODE = /^[A-Za-z0-9]{1,12}$/;

export const SEARCH_HINT =
  'an account id (G…), a muxed account (M…), a transaction hash, a ledger sequence or an asset code (CODE or CODE:ISSUER)';

export function classify(input: string): Found {
  const text = input.trim();
  if (text === '') return { kind: 'invalid', message: `Type ${SEARCH_HINT}.` };
  const upper = text.toUpperCase();
  // a strkey: G (56 characters) or M (69), base32 after its letter
  if (upper.length === 56 && upper.startsWith('G')) {
    return BASE32.test(upper) ? { kind: 'account', id: upper } : invalid(text, 'account id: G followed by 55 of A–Z and 2–7');
  }
  if (upper.length === 69 && upper.startsWith('M')) {
    return BASE32.test(upper) ? { kind: 'muxed', id: upper } : invalid(text, 'muxed account: M followed by 68 of A–Z and 2–7');
  }
  if (/^[0-9a-f]{64}$/i.test(text)) return { kind: 'transaction', hash: text.toLowerCase() };
  if (/^\d+$/.test(text)) {
    const value = BigInt(text);
    if (value === 0n) return invalid(text, 'ledger sequence: ledgers start at 1');
    if (value <= MAX_LEDGER) return { kind: 'ledger', sequence: value.toString() };
    // beyond any ledger: an operation's id (a TOID)
    if (value <= MAX_INT64) return { kind: 'operation', id: value.toString() };
    return invalid(text, 'ledger sequence or operation id: it is too large');
  }
  const colon = text.indexOf(':');
  if (colon > 0) {
    const code = text.slice(0, colon);
    const issuer = text.slice(colon + 1).toUpperCase();
    if (!ASSET_CODE.test(code)) return invalid(text, 'asset: its code is 1 to 12 letters and digits');
    if (issuer.length !== 56 || !issuer.startsWith('G') || !BASE32.test(issuer))
      return invalid(text, 'asset: its issuer is an account id (G…)');
    return { kind: 'asset', code, issuer };
  }
  // a key cut short or too long reads as a mistake, not as an asset code
  if ((upper.startsWith('G') || upper.startsWith('M')) && upper.length > 12 && BASE32.test(upper)) {
    return invalid(text, upper.startsWith('G') ? 'account id: it has 56 characters' : 'muxed account: it has 69 characters');
  }
  if (/^[0-9a-f]+$/i.test(text) && text.length > 12) return invalid(text, 'transaction hash: it has 64 hexadecimal digits');
  if (ASSET_CODE.test(text)) return { kind: 'asset', code: text, issuer: '' };
  return { kind: 'invalid', message: `“${shown(text)}” is not ${SEARCH_HINT}.` };
}

function invalid(text: string, what: string): Found {
  return { kind: 'invalid', message: `“${shown(text)}” is not a valid ${what}.` };
}

/** what a message quotes of the input */
function shown(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** GraphQL's AssetInput */
export interface AssetInput {
  assetType: 'native' | 'credit_alphanum4' | 'credit_alphanum12';
  assetCode?: string;
  assetIssuer?: string;
}

/** "native" (or "XLM") or "CODE:ISSUER" as GraphQL's AssetInput, or why it is none */
export function assetInput(input: string): AssetInput | { invalid: string } {
  const text = input.trim();
  if (text === 'native' || text.toUpperCase() === 'XLM') return { assetType: 'native' };
  const found = classify(text);
  if (found.kind !== 'asset' || !found.issuer) {
    return { invalid: `“${shown(text)}” is not an asset: write native (or XLM), or CODE:ISSUER with the issuer's account id.` };
  }
  return {
    assetType: found.code.length <= 4 ? 'credit_alphanum4' : 'credit_alphanum12',
    assetCode: found.code,
    assetIssuer: found.issuer,
  };
}
