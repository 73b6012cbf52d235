/**
 * What a load balancer and a monitoring system ask a node (docs/team-server.md, "Health checks
 * and metrics"), outside `/v1/openapi`, unauthenticated, answered without touching a robot:
 * `GET /healthz` (the process serves requests), `GET /readyz` (the store answers, the node has
 * read the other nodes' changes lately and it is not stopping; its check runs at most once a
 * second, whatever the number of probes) and `GET /metrics` (Prometheus text; off, loopback only
 * or open, by configuration).
 * @module
 */
import { performance } from 'node:perf_hooks';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from '../errors';
import type { IndexMemoryStatus } from '../domain/robot-indexes';
import type { BackendVitals, MetricsAccess, NotReadyReason } from '../health-types';
import type { AskHandler } from './ask-handler';
import type { ConnectionStats } from './connection-limits';
import { askOutcome, createMetrics } from './metrics';
import type { ServiceMetrics } from './metrics';

export interface OperationsDeps {
  vitals: BackendVitals;
  /** The service is stopping: `/readyz` says so while the requests in flight drain. */
  stopping(): boolean;
  metrics: MetricsAccess;
  /** The matching indexes held (robots loaded on demand: domain/robot-indexes.ts). */
  indexMemory: () => IndexMemoryStatus;
  /** Question log entries that could not be written since the start. */
  questionLogWriteFailures(): number;
}

/** A readiness check is reused this long: probes of many balancers cost one check. */
const READY_REUSE_MS = 1000;
/** A store that does not answer this soon is taken as out of reach. */
const READY_TIMEOUT_MS = 2000;

function readiness(deps: OperationsDeps): () => Promise<NotReadyReason | null> {
  let last: { at: number; reason: NotReadyReason | null } | null = null;
  let running: Promise<NotReadyReason | null> | null = null;
  const check = async (): Promise<NotReadyReason | null> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<NotReadyReason>((resolve) => {
      timer = setTimeout(() => resolve('store-unreachable'), READY_TIMEOUT_MS);
    });
    try {
      return await Promise.race([
        deps.vitals.notReady().catch((): NotReadyReason => 'store-unreachable'),
        late,
      ]);
    } finally {
      clearTimeout(timer);
    }
  };
  return async () => {
    if (deps.stopping()) return 'stopping';
    if (last && Date.now() - last.at < READY_REUSE_MS) return last.reason;
    running ??= check()
      .then((reason) => {
        last = { at: Date.now(), reason };
        return reason;
      })
      .finally(() => (running = null));
    return running;
  };
}

/**
 * A loopback client asking directly: a proxy on this machine forwarding someone else's request
 * says so in its headers, and is not taken for a local client.
 */
function isLocalClient(request: FastifyRequest): boolean {
  const address = request.socket.remoteAddress ?? '';
  const loopback = /^(127\.|::1$|::ffff:127\.)/.test(address);
  return loopback && !request.headers['x-forwarded-for'] && !request.headers.forwarded;
}

/**
 * Registers the health routes, and the metrics with their route and hooks when they are on;
 * returns the metrics (null when off) for the ask handler and sign-in to count into.
 */
export async function registerOperations(
  app: FastifyInstance,
  deps: OperationsDeps,
  connections: () => ConnectionStats,
): Promise<ServiceMetrics | null> {
  app.get('/healthz', async (_request, reply) => reply.send({ status: 'ok' }));
  const ready = readiness(deps);
  app.get('/readyz', async (_request, reply) => {
    const reason = await ready();
    if (reason === null) return reply.send({ status: 'ready' });
    return reply.status(503).header('Retry-After', 1).send({ status: 'not-ready', reason });
  });
  if (deps.metrics === 'off') return null;

  const metrics = await createMetrics({
    connections,
    questionLogWriteFailures: deps.questionLogWriteFailures,
    indexMemory: deps.indexMemory,
    vitals: deps.vitals,
  });
  const access = deps.metrics;
  app.get('/metrics', async (request, reply) => {
    if (access === 'loopback' && !isLocalClient(request)) {
      throw new ServiceError(
        'loopback-only',
        'The metrics are read from this machine only (--metrics on opens them to any client).',
      );
    }
    return reply.header('Content-Type', metrics.contentType).send(await metrics.render());
  });
  app.addHook('onResponse', async (request, reply) => {
    metrics.countRequest(
      request.routeOptions.url,
      request.method,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
  return metrics;
}

/** The ask handler, its answers counted by outcome and timed. */
export function countedAsks(handle: AskHandler, metrics: ServiceMetrics | null): AskHandler {
  if (!metrics) return handle;
  return async (call) => {
    const started = performance.now();
    const answer = await handle(call);
    metrics.countAsk(askOutcome(answer.status, answer.body), (performance.now() - started) / 1000);
    return answer;
  };
}
