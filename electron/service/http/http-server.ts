/**
 * The HTTP app, built and listening: what the service hands out of it (its address, the limits
 * its server keeps, requests answered in-process, close), never the framework's instance.
 * @module
 */
import type { OutgoingHttpHeaders } from 'node:http';
import { buildHttpApp } from './app';
import type { HttpDeps } from './app';
import { limitsOf } from './connection-limits';
import type { ConnectionLimits } from './connection-limits';

/** A request answered without a socket (tests, benchmarks). */
export interface InProcessRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS' | 'HEAD';
  /** Path and query string, as on the wire. */
  url: string;
  headers?: Record<string, string>;
  /** A string is sent as is; an object as JSON. */
  payload?: string | Record<string, unknown>;
}

export interface InProcessResponse {
  readonly statusCode: number;
  readonly headers: Readonly<OutgoingHttpHeaders>;
  readonly body: string;
  json<T = unknown>(): T;
}

export interface HttpServer {
  /** `http://host:port`. */
  readonly url: string;
  readonly port: number;
  /** The deadlines and the connection cap, as the listening server keeps them. */
  readonly connectionLimits: ConnectionLimits;
  /** Answers a request as a connection would get it answered, through the same app. */
  inject(request: InProcessRequest): Promise<InProcessResponse>;
  /** Stops accepting; the requests in flight are answered first (connection-limits.ts). */
  close(): Promise<void>;
}

/** Builds the app and listens on `host:port` (0: a free port); the app is closed if it cannot. */
export async function listenHttp(
  deps: Omit<HttpDeps, 'baseUrl' | 'listenHost'>,
  at: { host: string; port: number },
): Promise<HttpServer> {
  let url = '';
  const app = await buildHttpApp({ ...deps, listenHost: at.host, baseUrl: () => url });
  try {
    await app.listen({ port: at.port, host: at.host });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : at.port;
  url = `http://${at.host.includes(':') ? `[${at.host}]` : at.host}:${port}`;
  const server = app.server;
  return {
    url,
    port,
    get connectionLimits() {
      return limitsOf(server, deps.connectionLimits);
    },
    async inject(request) {
      const response = await app.inject(request);
      return {
        statusCode: response.statusCode,
        headers: response.headers,
        body: response.body,
        json: <T>() => response.json<T>(),
      };
    },
    close: () => app.close(),
  };
}
