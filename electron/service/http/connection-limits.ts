/**
 * Deadlines and a cap on connections, so that no client can hold the service by being slow:
 * headers must arrive within `headersTimeoutMs` and the whole request (body included) within
 * `requestTimeoutMs` (a 408, then the connection is closed), a connection silent for
 * `idleTimeoutMs` is closed, and at most `maxConnections` are open at once (more are closed as
 * they arrive). Fastify leaves request deadlines off by default: a body trickled a byte at a
 * time kept its connection, and its parser's memory, forever.
 * @module
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  idleTimeoutMs: number;
  maxConnections: number;
}

/**
 * Headers are small: 10 s is generous on any network. A whole request may be a 10 MiB batch:
 * 60 s is 1.4 Mbit/s. Keep-alive connections are closed after Fastify's 72 s anyway; idle ones
 * (connected, nothing sent) after 75 s. 512 connections is far more than the editor (6) and any
 * local client pool need.
 */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  idleTimeoutMs: 75_000,
  maxConnections: 512,
};

/** How long Node keeps an idle connection between two requests on it (Fastify's default). */
const KEEP_ALIVE_MS = 72_000;

/** How long a stop waits for the requests in flight before it closes their connections. */
export const STOP_DRAIN_MS = 10_000;
const DRAIN_POLL_MS = 50;

/** The open connections of each server made here, for `closeQuietConnections`. */
const openSockets = new WeakMap<Server, Set<Socket>>();

/**
 * The HTTP server with the limits. Node checks the deadlines on a timer (every 30 s by
 * default, which would let a request overstay by as much); it is run at a quarter of the
 * shorter deadline, at most every second.
 */
export function createLimitedServer(
  limits: ConnectionLimits,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(
        1000,
        Math.max(10, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)),
      ),
      keepAliveTimeout: Math.min(KEEP_ALIVE_MS, limits.idleTimeoutMs),
    },
    handler,
  );
  server.setTimeout(limits.idleTimeoutMs);
  server.maxConnections = limits.maxConnections;
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  openSockets.set(server, sockets);
  return server;
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
  for (const socket of openSockets.get(server) ?? []) {
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
