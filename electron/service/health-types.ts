/**
 * What a node tells its load balancer and its monitoring of itself (docs/team-server.md, "Health
 * checks and metrics"): why it cannot serve now, and the figures of its store and change feed.
 * Given by the backend (backend/) to the HTTP routes of health and metrics (http/health.ts).
 * @module
 */

/** Why `/readyz` answers 503. */
export type NotReadyReason = 'stopping' | 'store-unreachable' | 'catching-up';

/** A database pool's connections, as `/metrics` shows them. */
export interface PoolFigures {
  total: number;
  idle: number;
  /** Requests waiting for a connection. */
  waiting: number;
  max: number;
}

/** What a backend says of its own health. */
export interface BackendVitals {
  /**
   * Why the node cannot serve now, or null: the store does not answer a trivial query within a
   * couple of seconds, or the node has not read the other nodes' changes lately.
   */
  notReady(): Promise<Exclude<NotReadyReason, 'stopping'> | null>;
  /** The store's connection pool (a team server); null: none. */
  pool(): PoolFigures | null;
  /** Seconds since the change feed was last read and applied (a team server); null: no feed. */
  feedLagSeconds(): number | null;
}

/** Who may read `/metrics`: nobody (off), clients on this machine, or any client. */
export type MetricsAccess = 'off' | 'loopback' | 'on';
