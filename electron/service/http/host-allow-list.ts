/**
 * DNS rebinding defence for the editor and its console API: a web page on another site can
 * point its own host name at 127.0.0.1 and then call the service as if it were same-origin;
 * the browser still sends that host name in `Host`. The editor's routes (and the console's)
 * therefore answer only requests addressed to the service's own names: localhost, 127.0.0.1,
 * [::1], the address it listens on, and, when it listens on every address, the machine's name
 * and addresses. The openapi routes are signed and stay open to any `Host` (clients may reach
 * the service through any name).
 * @module
 */
import { hostname, networkInterfaces } from 'node:os';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { ServiceError } from '../errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An editor page or asset: answered only to the service's own host names. */
    editor?: boolean;
  }
}

const LOOPBACK = ['localhost', '127.0.0.1', '::1'];
const EVERY_ADDRESS = ['0.0.0.0', '::', ''];

/**
 * The host names a request may be addressed to, for a service listening on `listenHost` and
 * reached by `publicNames` too (a team server behind a load balancer: the names its users type).
 */
export function allowedHostNames(
  listenHost: string,
  publicNames: readonly string[] = [],
): Set<string> {
  const names = new Set([...LOOPBACK, normalize(listenHost), ...publicNames.map(hostNameOf)]);
  if (EVERY_ADDRESS.includes(listenHost)) {
    names.add(normalize(hostname()));
    for (const addresses of Object.values(networkInterfaces())) {
      for (const { address } of addresses ?? []) names.add(normalize(address));
    }
  }
  names.delete('');
  return names;
}

/** `Host` without its port, brackets, case or final dot: `[::1]:8787` → `::1`. */
export function hostNameOf(header: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(header);
  if (bracketed) return normalize(bracketed[1] ?? '');
  const colon = header.indexOf(':');
  // More than one colon without brackets: an IPv6 address with no port.
  const name = colon >= 0 && header.indexOf(':', colon + 1) < 0 ? header.slice(0, colon) : header;
  return normalize(name);
}

function normalize(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

/** Adds the check, first of all hooks, to every console and editor route. */
export function registerHostAllowList(
  app: FastifyInstance,
  listenHost: string,
  publicNames: readonly string[] = [],
): void {
  const allowed = allowedHostNames(listenHost, publicNames);
  const check: onRequestHookHandler = (request, _reply, done) => {
    const host = request.headers.host ?? '';
    if (allowed.has(hostNameOf(host))) {
      done();
      return;
    }
    done(
      new ServiceError(
        'host-not-allowed',
        `The editor answers only to the service's own addresses (localhost, 127.0.0.1, [::1]${
          EVERY_ADDRESS.includes(listenHost) || LOOPBACK.includes(listenHost)
            ? ''
            : `, ${listenHost}`
        }${publicNames.length > 0 ? `, ${publicNames.join(', ')}` : ''}), not to "${host.slice(0, 100)}". A team server reached by another name lists it in --public-host.`,
      ),
    );
  };
  app.addHook('onRoute', (route) => {
    if (!route.config?.console && !route.config?.editor) return;
    const own = route.onRequest;
    route.onRequest = own === undefined ? [check] : [check, ...(Array.isArray(own) ? own : [own])];
  });
}
