// stellar-core's HTTP commands: GET /tx?blob=, GET /info, GET /manualclose[?closeTime=].
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Core } from '../core.js';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

const MAX_BODY = 1 << 20;

function send(res: ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  const text = typeof body === 'string' ? body : `${JSON.stringify(body)}\n`;
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    const b = c as Buffer;
    size += b.length;
    if (size > MAX_BODY) throw new Error('request body too large');
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function coreHttpHandler(core: Core): RequestListener {
  return (req, res) => {
    handle(core, req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, { exception: String(e instanceof Error ? e.message : e) });
      else res.end();
    });
  };
}

async function handle(core: Core, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://core');
  const params = url.searchParams;
  if (req.method === 'POST') {
    const body = await readBody(req);
    for (const [k, v] of new URLSearchParams(body)) if (!params.has(k)) params.set(k, v);
  } else if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, { exception: `method ${req.method ?? ''} not allowed` });
    return;
  }
  switch (url.pathname) {
    case '/tx': {
      // an unescaped '+' arrives as a space; base64 never contains spaces
      const blob = params.get('blob')?.replace(/ /g, '+');
      if (!blob) {
        send(res, 400, { exception: 'Must specify a tx blob: tx?blob=<tx in xdr format>' });
        return;
      }
      send(res, 200, await core.submitAsync(blob));
      return;
    }
    case '/info':
      send(res, 200, core.info());
      return;
    case '/manualclose': {
      if (!core.manualClose) {
        send(res, 200, {
          exception:
            'Set MANUAL_CLOSE=true in the stellar-core.cfg if you want to close every ledger manually. Otherwise, run stellar-core with --wait-for-consensus',
        });
        return;
      }
      const ct = params.get('closeTime');
      let closeTime: number | undefined;
      if (ct !== null) {
        closeTime = Number(ct);
        if (!/^\d+$/.test(ct) || !Number.isSafeInteger(closeTime)) {
          send(res, 400, { exception: `Failed to parse 'closeTime' parameter: ${ct}` });
          return;
        }
      }
      try {
        const closed = await core.closeLedger(closeTime);
        send(res, 200, `Manually closed ledger with sequence number ${closed.sequence} and closeTime ${closed.closeTime}`, 'text/plain');
      } catch (e) {
        send(res, 400, { exception: e instanceof Error ? e.message : String(e) });
      }
      return;
    }
    default:
      send(res, 404, { exception: `unknown command ${url.pathname}; try /tx, /info or /manualclose` });
  }
}
