/**
 * What differs between the two hosts of the service (docs/architecture.md, "The composition
 * root"): the embedded store on this computer (embedded.ts), or a node of a team server on
 * PostgreSQL (team-server.ts). The rest of the service is built the same over either.
 * @module
 */
import type { VerifierDeps } from '../auth/verify';
import type { ServiceConfig } from '../config';
import type { DomainContext } from '../domain/context';
import type { BackendVitals } from '../health-types';
import type { IndexCodec, IndexSavePlan, SavedIndexes } from '../domain/robot-loading';
import type { QuestionLogRepository } from '../store/contract/question-log';
import type { KbStore } from '../store/contract/store';

/** The matching indexes kept from one run to the next (the embedded store's `kb.index`). */
export interface IndexPersistence {
  /** How an index is written and read back; null: every index is built from the store. */
  readonly codec: IndexCodec | null;
  /** What the last clean stop kept, read while the store opened. */
  readonly saved: SavedIndexes;
}

/**
 * What a stop keeps of the indexes: `unchanged`, those opened at start (nothing was written
 * since: they are still exact); else the plan of a new save (null: nothing to save).
 */
export type IndexesAtStop = 'unchanged' | IndexSavePlan | null;

export interface Backend {
  readonly store: KbStore;
  readonly indexes: IndexPersistence;
  /**
   * The process before did not stop cleanly (the journal was cut, or a node's lock was left):
   * the nonces it used are unknown.
   */
  readonly uncleanStop: boolean;
  /** The signatures all nodes have seen (replay refusal across a team server); null: none. */
  readonly sharedSignatures: NonNullable<VerifierDeps['sharedSignatures']> | null;
  /** Whether the store answers and the other nodes' changes are followed (`/readyz`, metrics). */
  readonly vitals: BackendVitals;
  /** Where the question log is written: day files here, the team's table on a server. */
  questionLog(): Promise<QuestionLogRepository>;
  /** Starts following the other nodes' writes into `ctx`, once it is loaded (a team server). */
  follow(ctx: DomainContext): Promise<void>;
  /** Stops following them (nothing is answered any more). */
  stopFollowing(): Promise<void>;
  /** Closes the store, keeping the indexes as told, and releases the data directory. */
  close(indexes: IndexesAtStop): Promise<void>;
  /** Gives up after a failed start: closes without writing anything of a stop. */
  abort(): Promise<void>;
}

/** A configuration with a team server's database. */
export type TeamServerConfig = ServiceConfig & { readonly database: string };

export function isTeamServer(config: ServiceConfig): config is TeamServerConfig {
  return config.database !== null;
}
