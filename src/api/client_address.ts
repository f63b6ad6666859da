// Who a request comes from, and the scheme://host its links are built on. X-Forwarded-For, -Proto
// and -Host are a proxy's word: they count only when the connection comes from an address of
// --trusted-proxies (none by default), so no client can choose the links others are answered with
// or the address its rate limit is counted under. Otherwise the request's own connection and Host
// are the truth. The server identifies each request once; requestOrigin reads what it found.
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

export interface Client {
  /** the client's IP: the connection's, or behind trusted proxies the nearest untrusted X-Forwarded-For entry */
  ip: string;
  /** scheme://host of the request as the client made it */
  origin: string;
}

/** The addresses whose X-Forwarded-* headers are believed. */
export class TrustedProxies {
  private readonly list = new BlockList();
  readonly empty: boolean;

  /** `entries`: IPs and CIDR ranges, as config.ts's --trusted-proxies checked them */
  constructor(entries: readonly string[] = []) {
    for (const entry of entries) {
      const [address = '', prefix] = entry.split('/');
      const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.list.addAddress(address, type);
      else this.list.addSubnet(address, Number(prefix), type);
    }
    this.empty = entries.length === 0;
  }

  has(ip: string): boolean {
    if (this.empty) return false;
    const type = isIP(ip);
    return type !== 0 && this.list.check(ip, type === 6 ? 'ipv6' : 'ipv4');
  }
}

const NO_PROXIES = new TrustedProxies();
const clients = new WeakMap<IncomingMessage, Client>();
/** a host as links may carry it: a name or an address, and a port */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** Finds the request's client (remembered for requestOrigin). */
export function identifyClient(req: IncomingMessage, trusted: TrustedProxies): Client {
  const peer = plainAddress(req.socket.remoteAddress ?? '');
  const viaProxy = trusted.has(peer);
  const ownProto = 'encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http';
  const ownHost = validHost(firstValue(req.headers.host)) ?? hostOf(req.socket.localAddress, req.socket.localPort);
  let ip = peer;
  let origin = `${ownProto}://${ownHost}`;
  if (viaProxy) {
    ip = forwardedClient(req.headers['x-forwarded-for'], trusted) ?? peer;
    const proto = firstValue(req.headers['x-forwarded-proto'])?.toLowerCase();
    const host = validHost(firstValue(req.headers['x-forwarded-host']));
    origin = `${proto === 'https' || proto === 'http' ? proto : ownProto}://${host ?? ownHost}`;
  }
  const client = { ip, origin };
  clients.set(req, client);
  return client;
}

/** scheme://host of the request, for absolute links; a request the server did not identify trusts no proxy. */
export function requestOrigin(req: IncomingMessage): string {
  return (clients.get(req) ?? identifyClient(req, NO_PROXIES)).origin;
}

/** The client's IP, for the limits counted per address. */
export function clientIp(req: IncomingMessage): string {
  return (clients.get(req) ?? identifyClient(req, NO_PROXIES)).ip;
}

/** The rightmost X-Forwarded-For address that is not a trusted proxy (each proxy appends the one it heard from). */
function forwardedClient(header: string | string[] | undefined, trusted: TrustedProxies): string | undefined {
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((hop) => plainAddress(hop.trim()))
    .filter((hop) => isIP(hop) !== 0);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trusted.has(hops[i]!)) return hops[i];
  }
  return hops[0];
}

/** an IPv4 client of a dual-stack socket is ::ffff:a.b.c.d */
function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

function firstValue(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first?.split(',')[0]?.trim() || undefined;
}

function validHost(host: string | undefined): string | undefined {
  return host !== undefined && HOST.test(host) ? host : undefined;
}

function hostOf(address: string | undefined, port: number | undefined): string {
  const plain = plainAddress(address ?? '127.0.0.1');
  return `${isIP(plain) === 6 ? `[${plain}]` : plain}:${port ?? 80}`;
}
