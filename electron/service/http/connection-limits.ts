/**
 * Deadlines and fair shares of connections, so that no client can hold the service by being
 * slow or by holding many connections: headers must arrive within `headersTimeoutMs` and the
 * whole request (body included) within `requestTimeoutMs` (a 408, then the connection is closed),
 * a connection silent for `idleTimeoutMs` is closed, at most `maxConnections` are open at once
 * and at most `maxConnectionsPerAddress` from one client address (when not 0). Before a new
 * connection is refused for either cap, an idle one (no request in flight) is closed to make
 * room: of the same address for its own cap, else of the address holding the most. Fastify
 * leaves request deadlines off by default: a body trickled a byte at a time kept its connection,
 * and its parser's memory, forever; and 600 idle connections of one client made real requests
 * fail under Node's plain cap.
 * @module
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { BlockList, isIPv6 } from 'node:net';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  idleTimeoutMs: number;
  maxConnections: number;
  /** Connections one client address (an IPv6 /64) may hold at once; 0: no limit. */
  maxConnectionsPerAddress: number;
}

/**
 * Headers are small: 10 s is generous on any network. A whole request may be a 10 MiB batch:
 * 60 s is 1.4 Mbit/s. Keep-alive connections are closed after Fastify's 72 s anyway; idle ones
 * (connected, nothing sent) after 75 s. 512 connections is far more than the editor (6) and any
 * local client pool need. No limit per address on loopback (every client is 127.0.0.1 there).
 */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  idleTimeoutMs: 75_000,
  maxConnections: 512,
  maxConnectionsPerAddress: 0,
};

/**
 * The limit per address of a service listening beyond loopback: a browser opens 6 connections
 * per host, a client pool tens; a load balancer is exempt (its addresses are the trusted
 * proxies), since every client behind it shares its address.
 */
export const PER_ADDRESS_BEYOND_LOOPBACK = 64;

/** How long Node keeps an idle connection between two requests on it (Fastify's default). */
const KEEP_ALIVE_MS = 72_000;

/** How long a stop waits for the requests in flight before it closes their connections. */
export const STOP_DRAIN_MS = 10_000;
const DRAIN_POLL_MS = 50;

/** What the connections came to since the server started (http/metrics.ts reads it). */
export interface ConnectionStats {
  readonly open: number;
  /** Refused because every connection of the address, or every connection, was busy. */
  readonly refusedPerAddress: number;
  readonly refusedTotal: number;
  /** Idle connections closed to make room for new ones. */
  readonly reaped: number;
}

/** One open connection. */
interface Held {
  socket: Socket;
  key: string;
  /** Requests received and not answered yet. */
  busy: number;
  /** When it last became idle (or connected). */
  idleSince: number;
  /** Bytes read then: more since means a request is arriving. */
  readAtIdle: number;
}

/** The client address a limit counts: IPv4 as is, IPv6 by its /64 (one subscriber's network). */
export function addressKey(address: string): string {
  const bare = address.replace(/%.*$/, '');
  if (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(bare)) return bare.slice(7);
  if (!isIPv6(bare)) return bare;
  const [head = '', tail] = bare.split('::');
  const front = head === '' ? [] : head.split(':');
  const back = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined
      ? front
      : [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/** Fastify's keywords for proxy ranges, as `trustProxy` takes them. */
const NAMED_RANGES: Record<string, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  linklocal: [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
  uniquelocal: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
};

/** The addresses (or CIDR ranges, or Fastify's keywords) exempt from the limit per address. */
export function exemptAddresses(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const named = NAMED_RANGES[entry];
    if (named) {
      for (const [net, prefix, type] of named) list.addSubnet(net, prefix, type);
      continue;
    }
    const [net = '', prefix] = entry.split('/');
    const type = isIPv6(net) ? 'ipv6' : 'ipv4';
    try {
      if (prefix === undefined) list.addAddress(net, type);
      else list.addSubnet(net, Number(prefix), type);
    } catch {
      // Not an address (Fastify takes a few more spellings): it exempts nothing here.
    }
  }
  return list;
}

/** Whether `address` is in the list (an IPv4-mapped IPv6 address as its IPv4 one). */
function isExempt(list: BlockList, address: string): boolean {
  const bare = address.replace(/%.*$/, '');
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)?.[1];
  try {
    return v4 ? list.check(v4, 'ipv4') : list.check(bare, isIPv6(bare) ? 'ipv6' : 'ipv4');
  } catch {
    return false;
  }
}

/** Requests whose route lifted the whole-request deadline (a robot bundle's upload). */
const lifted = new WeakSet<IncomingMessage>();

/**
 * Frees `request` from the whole-request deadline: a robot bundle of 100 MB is read as fast as
 * its check goes, which on a loaded machine is longer than any deadline fit for every other
 * route (its upload was cut with a 408 at 60 s). The idle timeout still closes a silent client.
 */
export function liftRequestDeadline(request: IncomingMessage): void {
  lifted.add(request);
}

/**
 * The whole-request deadline, kept here rather than by Node (whose `requestTimeout` no route can
 * lift): a request whose body has not all arrived `timeoutMs` after its headers is answered 408
 * (the framework's client error answer) and its connection closed. Checked on a timer, as Node
 * checks its own.
 */
class RequestDeadlines {
  private readonly open = new Map<IncomingMessage, { res: ServerResponse; at: number }>();

  constructor(
    private readonly timeoutMs: number,
    private readonly server: () => Server,
  ) {}

  started(req: IncomingMessage, res: ServerResponse): void {
    if (this.timeoutMs === 0 || req.complete) return;
    this.open.set(req, { res, at: Date.now() + this.timeoutMs });
  }

  ended(req: IncomingMessage): void {
    this.open.delete(req);
  }

  check(): void {
    const now = Date.now();
    for (const [req, { res, at }] of this.open) {
      if (req.complete || req.destroyed || lifted.has(req)) this.open.delete(req);
      else if (now >= at) {
        this.open.delete(req);
        this.expire(req, res);
      }
    }
  }

  /** As Node's own deadline does: the client error answer when no answer began, then closed. */
  private expire(req: IncomingMessage, res: ServerResponse): void {
    const server = this.server();
    if (res.headersSent || server.listenerCount('clientError') === 0) {
      req.socket.destroy();
      return;
    }
    const error = Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
    server.emit('clientError', error, req.socket);
  }
}

/** The open connections of a server, by address, and the room made for new ones. */
class ConnectionBook {
  private readonly held = new Map<Socket, Held>();
  private readonly byKey = new Map<string, Set<Held>>();
  readonly stats = { refusedPerAddress: 0, refusedTotal: 0, reaped: 0 };

  constructor(
    private readonly limits: ConnectionLimits,
    private readonly exempt: BlockList,
  ) {}

  get open(): number {
    return this.held.size;
  }

  sockets(): IterableIterator<Socket> {
    return this.held.keys();
  }

  /** Takes a new connection in, closing an idle one to make room if need be; false: refused. */
  admit(socket: Socket): boolean {
    const address = socket.remoteAddress ?? '';
    const key = addressKey(address);
    const perAddress = this.limits.maxConnectionsPerAddress;
    const mine = this.byKey.get(key);
    if (perAddress > 0 && (mine?.size ?? 0) >= perAddress && !isExempt(this.exempt, address)) {
      if (!this.reapOne(mine ?? new Set())) {
        this.stats.refusedPerAddress += 1;
        return false;
      }
    }
    if (this.held.size >= this.limits.maxConnections && !this.reapOne(this.largestHolder())) {
      if (!this.reapOne(new Set(this.held.values()))) {
        this.stats.refusedTotal += 1;
        return false;
      }
    }
    const entry: Held = { socket, key, busy: 0, idleSince: Date.now(), readAtIdle: 0 };
    this.held.set(socket, entry);
    let set = this.byKey.get(key);
    if (!set) {
      set = new Set();
      this.byKey.set(key, set);
    }
    set.add(entry);
    socket.once('close', () => this.forget(entry));
    return true;
  }

  requestStarted(socket: Socket): void {
    const entry = this.held.get(socket);
    if (entry) entry.busy += 1;
  }

  requestEnded(socket: Socket): void {
    const entry = this.held.get(socket);
    if (!entry) return;
    entry.busy = Math.max(0, entry.busy - 1);
    if (entry.busy === 0) {
      entry.idleSince = Date.now();
      entry.readAtIdle = socket.bytesRead;
    }
  }

  private forget(entry: Held): void {
    this.held.delete(entry.socket);
    const set = this.byKey.get(entry.key);
    set?.delete(entry);
    if (set?.size === 0) this.byKey.delete(entry.key);
  }

  private largestHolder(): Set<Held> {
    let largest = new Set<Held>();
    for (const set of this.byKey.values()) if (set.size > largest.size) largest = set;
    return largest;
  }

  /**
   * Closes the idle connection of `among` that has waited longest, those with nothing arriving
   * before those receiving a request's first bytes; false when every one is busy.
   */
  private reapOne(among: ReadonlySet<Held>): boolean {
    let victim: Held | undefined;
    let victimArriving = true;
    for (const entry of among) {
      if (entry.busy > 0 || entry.socket.destroyed) continue;
      const arriving = entry.socket.bytesRead > entry.readAtIdle;
      const better =
        victim === undefined ||
        (victimArriving && !arriving) ||
        (victimArriving === arriving && entry.idleSince < victim.idleSince);
      if (better) {
        victim = entry;
        victimArriving = arriving;
      }
    }
    if (!victim) return false;
    this.forget(victim);
    victim.socket.destroy();
    this.stats.reaped += 1;
    return true;
  }
}

/** The connections of each server made here. */
const books = new WeakMap<Server, ConnectionBook>();

/** What the server's connections came to (zeros for a server not made here). */
export function connectionStats(server: Server): ConnectionStats {
  const book = books.get(server);
  return {
    open: book?.open ?? 0,
    ...(book?.stats ?? { refusedPerAddress: 0, refusedTotal: 0, reaped: 0 }),
  };
}

/** A quarter of the shorter deadline, at most every second. */
const checkEveryMs = (limits: ConnectionLimits) =>
  Math.min(
    1000,
    Math.max(10, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)),
  );

/**
 * The HTTP server with the limits. Node checks the deadlines on a timer (every 30 s by
 * default, which would let a request overstay by as much); it is run at a quarter of the
 * shorter deadline, at most every second. `exempt`: addresses without a limit of their own (the
 * trusted load balancers).
 */
export function createLimitedServer(
  limits: ConnectionLimits,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  exempt: readonly string[] = [],
): Server {
  const book = new ConnectionBook(limits, exemptAddresses(exempt));
  const deadlines = new RequestDeadlines(limits.requestTimeoutMs, () => server);
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      // Kept by `deadlines`, so that the bundle route can lift it (Node's cannot be).
      requestTimeout: 0,
      connectionsCheckingInterval: checkEveryMs(limits),
      keepAliveTimeout: Math.min(KEEP_ALIVE_MS, limits.idleTimeoutMs),
    },
    (req, res) => {
      const socket = req.socket;
      book.requestStarted(socket);
      deadlines.started(req, res);
      res.once('close', () => {
        book.requestEnded(socket);
        deadlines.ended(req);
      });
      handler(req, res);
    },
  );
  const checking = setInterval(() => deadlines.check(), checkEveryMs(limits)).unref();
  server.once('close', () => clearInterval(checking));
  server.setTimeout(limits.idleTimeoutMs);
  // Node's own cap would refuse before looking for an idle connection to close: the book keeps it.
  server.on('connection', (socket: Socket) => {
    if (!book.admit(socket)) socket.destroy();
  });
  books.set(server, book);
  return server;
}

/** The limits a server made here keeps. */
export function limitsOf(server: Server, limits: ConnectionLimits): ConnectionLimits {
  return {
    ...limits,
    headersTimeoutMs: server.headersTimeout,
    // Node's is off: the service keeps this one itself (RequestDeadlines).
    requestTimeoutMs: limits.requestTimeoutMs,
    idleTimeoutMs: server.timeout,
  };
}

/**
 * Called as the server stops accepting: closes at once the connections that carry no request,
 * and the others once their request is answered or `drainMs` passed. Node's own
 * closeIdleConnections skips a connection that never sent a byte (a browser opens such
 * connections ahead of need), and once the server is closing, no deadline timer runs any more:
 * the stop waited for the idle timeout, 75 s, whenever the editor was open. A connection whose
 * request is answered becomes idle; it is looked for every `DRAIN_POLL_MS`.
 */
export function closeQuietConnections(server: Server, drainMs: number = STOP_DRAIN_MS): void {
  for (const socket of books.get(server)?.sockets() ?? []) {
    if (socket.bytesRead === 0) socket.destroy();
  }
  server.closeIdleConnections();
  const poll = setInterval(() => server.closeIdleConnections(), DRAIN_POLL_MS).unref();
  const deadline = setTimeout(() => server.closeAllConnections(), drainMs).unref();
  server.once('close', () => {
    clearInterval(poll);
    clearTimeout(deadline);
  });
}
