/**
 * The service's metrics in the Prometheus text format (prom-client), for `/metrics`
 * (docs/team-server.md, "Health checks and metrics"). Labels take a few fixed values only (an
 * ask's outcome, a route's pattern, a status class, an import's kind): nothing per robot, tenant
 * or user, so the number of series stays bounded however the service is used. Each service has
 * its own registry (several run in one test process). prom-client is loaded only when metrics
 * are on: the desktop app's start does not pay for it.
 * @module
 */
import type { BackendVitals } from '../health-types';
import type * as PromClient from 'prom-client';
import type { Registry } from 'prom-client';
import type { IndexMemoryStatus } from '../domain/robot-indexes';
import type { ConnectionStats } from './connection-limits';

/** How an ask ended: its answer's kind, or its refusal or failure. */
export type AskOutcome =
  'bestmatch' | 'recommend' | 'menu' | 'chat' | 'fallback' | 'refused' | 'failed';

/** The kinds of import, by route. */
const IMPORT_ROUTES: Readonly<Record<string, string>> = {
  '/v1/openapi/tenants/:tenantId/robots/:robotId/kb/rules/full/batch': 'rules-batch',
  '/console/api/tenants/:tenantId/robots/import': 'robot-bundle',
};

/** What the metrics read when scraped. */
export interface MetricsSources {
  connections(): ConnectionStats;
  /** Question log entries that could not be written, since the start. */
  questionLogWriteFailures(): number;
  vitals: BackendVitals;
  indexMemory(): IndexMemoryStatus;
}

export interface ServiceMetrics {
  readonly contentType: string;
  /** The text of every metric now. */
  render(): Promise<string>;
  countAsk(outcome: AskOutcome, seconds: number): void;
  /** A request answered through Fastify (the ask's fast lane is counted by `countAsk` only). */
  countRequest(route: string | undefined, method: string, status: number, seconds: number): void;
  countSignIn(outcome: 'signed-in' | 'choose-tenant' | 'failed' | 'refused'): void;
}

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/** The outcome of an ask from its answer (the envelope the ask handler gives). */
export function askOutcome(status: number, body: unknown): AskOutcome {
  if (status >= 500) return 'failed';
  if (status >= 400) return 'refused';
  const data = (body as { data?: { answerType?: string; module?: string } | null }).data;
  if (data?.module === 'NONE') return 'fallback';
  if (data?.module === 'CHAT') return 'chat';
  if (data?.answerType === 'RECOMMEND') return 'recommend';
  if (data?.answerType === 'MENU') return 'menu';
  return 'bestmatch';
}

/** Seconds: asks answer in a millisecond or two; imports take seconds. */
const ASK_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const REQUEST_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const IMPORT_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

type Prom = typeof PromClient;

/** The matching indexes held: one series each, whatever the number of robots. */
function indexGauges(sources: MetricsSources, registers: Registry[], prom: Prom) {
  const figures: [string, string, (status: IndexMemoryStatus) => number][] = [
    ['kb_robot_indexes_loaded', 'Robots whose matching index is in memory now.', (s) => s.loaded],
    ['kb_robot_index_bytes', 'Estimated bytes of the matching indexes in memory.', (s) => s.bytes],
    [
      'kb_robot_index_budget_bytes',
      'The memory budget of the matching indexes (--memory-budget); 0: none, every index kept.',
      (s) => s.budgetBytes ?? 0,
    ],
    [
      'kb_robot_index_loads',
      'Matching indexes loaded on demand (a robot asked while not in memory) since the start.',
      (s) => s.loads,
    ],
    [
      'kb_robot_index_file_opens',
      "Of the loads on demand, those opened from the robot's saved index file since the start.",
      (s) => s.openedFromFiles,
    ],
    [
      'kb_robot_index_evictions',
      'Matching indexes let go since the start to keep within the memory budget.',
      (s) => s.evictions,
    ],
    [
      'kb_robot_index_reserved_bytes',
      "Bytes counted in the memory budget for work beside the indexes: old versions' indexes, replays.",
      (s) => s.reservedBytes,
    ],
    [
      'kb_robot_index_uncollected_bytes',
      'Estimated bytes of matching indexes let go of that V8 has not collected yet (still counted in the budget).',
      (s) => s.uncollectedBytes,
    ],
  ];
  for (const [name, help, read] of figures) {
    new prom.Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read(sources.indexMemory()));
      },
    });
  }
}

export async function createMetrics(sources: MetricsSources): Promise<ServiceMetrics> {
  const prom = await import('prom-client');
  const registry = new prom.Registry();
  const registers = [registry];
  prom.collectDefaultMetrics({ register: registry });

  const asks = new prom.Counter({
    name: 'kb_asks_total',
    help: 'Asks answered, by outcome: the answer type (bestmatch, recommend, menu), small talk (chat), the fallback, or refused (4xx) and failed (5xx).',
    labelNames: ['outcome'],
    registers,
  });
  const askSeconds = new prom.Histogram({
    name: 'kb_ask_duration_seconds',
    help: 'Time from an ask read to its answer, fast lane and Fastify alike.',
    buckets: ASK_BUCKETS,
    registers,
  });
  const requestSeconds = new prom.Histogram({
    name: 'kb_http_request_duration_seconds',
    help: 'Requests answered through Fastify, by route pattern, method and status class.',
    labelNames: ['route', 'method', 'status'],
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const imports = new prom.Counter({
    name: 'kb_imports_total',
    help: 'Imports (the openapi rules batch, robot bundles), by kind and status class.',
    labelNames: ['kind', 'status'],
    registers,
  });
  const importSeconds = new prom.Histogram({
    name: 'kb_import_duration_seconds',
    help: 'Time to answer an import, by kind.',
    labelNames: ['kind'],
    buckets: IMPORT_BUCKETS,
    registers,
  });
  const signIns = new prom.Counter({
    name: 'kb_sign_ins_total',
    help: 'Sign-ins to the editor (team server), by outcome: signed-in, choose-tenant, failed, refused (429, before any password was checked).',
    labelNames: ['outcome'],
    registers,
  });
  new prom.Gauge({
    name: 'kb_question_log_write_failures',
    help: 'Question log entries that could not be written since the start.',
    registers,
    collect() {
      this.set(sources.questionLogWriteFailures());
    },
  });
  new prom.Gauge({
    name: 'kb_http_connections',
    help: 'HTTP connections open now.',
    registers,
    collect() {
      this.set(sources.connections().open);
    },
  });
  new prom.Gauge({
    name: 'kb_http_connections_refused',
    help: 'Connections refused since the start because every connection of the address (per-address) or every connection (total) was busy.',
    labelNames: ['cap'],
    registers,
    collect() {
      const stats = sources.connections();
      this.set({ cap: 'per-address' }, stats.refusedPerAddress);
      this.set({ cap: 'total' }, stats.refusedTotal);
    },
  });
  new prom.Gauge({
    name: 'kb_http_connections_reaped',
    help: 'Idle connections closed since the start to make room for new ones.',
    registers,
    collect() {
      this.set(sources.connections().reaped);
    },
  });
  indexGauges(sources, registers, prom);
  // A team server's figures only: the embedded store has no pool and no feed.
  if (sources.vitals.pool() !== null) {
    new prom.Gauge({
      name: 'kb_db_pool_connections',
      help: "The store's database connections, by state (busy, idle), and its maximum (max).",
      labelNames: ['state'],
      registers,
      collect() {
        const pool = sources.vitals.pool();
        if (!pool) return;
        this.set({ state: 'busy' }, pool.total - pool.idle);
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'max' }, pool.max);
      },
    });
    new prom.Gauge({
      name: 'kb_db_pool_waiting',
      help: 'Queries waiting for a database connection.',
      registers,
      collect() {
        this.set(sources.vitals.pool()?.waiting ?? 0);
      },
    });
  }
  if (sources.vitals.feedLagSeconds() !== null) {
    new prom.Gauge({
      name: 'kb_change_feed_lag_seconds',
      help: "Seconds since this node last read and applied the other nodes' changes (read every second).",
      registers,
      collect() {
        this.set(sources.vitals.feedLagSeconds() ?? 0);
      },
    });
  }

  return {
    contentType: registry.contentType,
    render: () => registry.metrics(),
    countAsk(outcome, seconds) {
      asks.inc({ outcome });
      askSeconds.observe(seconds);
    },
    countRequest(route, method, status, seconds) {
      // A path no route has is one label, whatever was asked: the set of series stays bounded.
      const pattern = route ?? 'unmatched';
      requestSeconds.observe({ route: pattern, method, status: statusClass(status) }, seconds);
      const kind = IMPORT_ROUTES[pattern];
      if (kind !== undefined) {
        imports.inc({ kind, status: statusClass(status) });
        importSeconds.observe({ kind }, seconds);
      }
    },
    countSignIn(outcome) {
      signIns.inc({ outcome });
    },
  };
}
