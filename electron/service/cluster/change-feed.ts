/**
 * Reads the change feed (store/postgres/cluster-schema.ts) without missing a change that commits late.
 *
 * Change ids come from a sequence and are taken before commit: a transaction that took id 10 can
 * commit after one that took id 11, so "every id above the last one read" loses id 10. The
 * reader goes by transaction ids instead: every transaction whose id is below the `xmin` of a
 * snapshot has ended, so a read under that snapshot sees every change it will ever write. The
 * position is that `xmin` (the floor): each read takes every row written at or above the floor,
 * skips the ones already handed out, and moves the floor to its own snapshot's `xmin`. A change
 * of a transaction still running at one read is read by a later one, whatever its id.
 * @module
 */
import { DatabaseAvailability } from '../store/postgres/availability';
import type { Client, Pool } from '../store/postgres/connection';
import { isConnectionFailure } from '../store/postgres/database-errors';
import { silentLogger } from '../logger';

export type ChangeKind = 'rules' | 'robot' | 'tenant' | 'version' | 'category' | 'user';

export interface Change {
  id: number;
  kind: ChangeKind;
  tenantId: number | null;
  robotId: string | null;
  /** For `rules`: the rules the statement touched. */
  ruleIds: string[];
}

/** Changes read, to be marked applied (`advance`) once the node's memory follows them. */
export interface ChangeBatch {
  changes: Change[];
  /** Moves the reader past these changes; a batch not advanced is read again. */
  advance(): void;
}

interface ChangeRow {
  change_id: number;
  xid: string;
  kind: ChangeKind;
  tenant_id: number | null;
  robot_id: string | null;
  rule_ids: string[] | null;
}

/** The oldest transaction id that may still commit, under the statement's snapshot. */
const FLOOR_SQL = 'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS floor';

async function readFloor(client: Pick<Client, 'query'>): Promise<bigint> {
  const { rows } = await client.query<{ floor: string }>(FLOOR_SQL);
  return BigInt((rows[0] as { floor: string }).floor);
}

export class ChangeFeed {
  /** Every change written by a transaction below this id has been handed out. */
  private floor: bigint | null = null;
  /** Changes at or above the floor already handed out: id → its transaction's id. */
  private readonly seen = new Map<number, bigint>();

  /**
   * @param availability where outages are noted (the store's, so that the follower's read every
   * second notices the database back); one of its own, silent, when not given (tests)
   */
  constructor(
    private readonly pool: Pool,
    private readonly availability = new DatabaseAvailability(silentLogger),
  ) {}

  /** Whether `start` has taken a position. */
  get started(): boolean {
    return this.floor !== null;
  }

  /**
   * Takes the current position, before the node loads its state: every change committed before
   * it is in what the node loads; any later is read from here (some twice: applying is
   * idempotent).
   */
  async start(): Promise<void> {
    this.floor = await this.availability.call(() => readFloor(this.pool));
    this.seen.clear();
  }

  /** The changes not handed out yet, in id order, from one snapshot. */
  async read(): Promise<ChangeBatch> {
    const from = this.floor;
    if (from === null) throw new Error('the change feed is read before its position is taken');
    const outage = this.availability.outageCount;
    const client = await this.pool.connect().catch((error: unknown) => {
      throw this.availability.failed(error);
    });
    let floor: bigint;
    let rows: ChangeRow[];
    // A held connection that dies emits 'error', which would end the process without a
    // listener: the read fails instead (the follower reads again), and the connection is dropped.
    let broken: Error | undefined;
    const onError = (error: Error) => (broken = error);
    client.on('error', onError);
    try {
      // One snapshot for both statements: the floor it gives is exact for the rows it reads.
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      floor = await readFloor(client);
      ({ rows } = await client.query<ChangeRow>(
        `SELECT change_id, xid::text AS xid, kind, tenant_id, robot_id, rule_ids
         FROM changes WHERE xid >= $1::text::xid8 ORDER BY change_id`,
        [from.toString()],
      ));
      await client.query('COMMIT');
      this.availability.answered(outage);
    } catch (error) {
      // A connection that failed or timed out is asked nothing more: it is dropped.
      if (broken === undefined && !isConnectionFailure(error)) {
        await client.query('ROLLBACK').catch((failure: Error) => (broken ??= failure));
      } else {
        broken ??= error as Error;
      }
      throw this.availability.failed(error);
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
    const fresh = rows.filter((row) => !this.seen.has(row.change_id));
    return {
      changes: fresh.map((row) => ({
        id: row.change_id,
        kind: row.kind,
        tenantId: row.tenant_id,
        robotId: row.robot_id,
        ruleIds: row.rule_ids ?? [],
      })),
      advance: () => {
        if (this.floor !== from) return;
        for (const row of fresh) this.seen.set(row.change_id, BigInt(row.xid));
        this.floor = floor;
        for (const [id, xid] of this.seen) if (xid < floor) this.seen.delete(id);
      },
    };
  }
}

/** Deletes the changes older than `before` (ms); returns how many. */
export async function pruneChanges(pool: Pool, before: number): Promise<number> {
  const result = await pool.query('DELETE FROM changes WHERE at < $1', [before]);
  return result.rowCount ?? 0;
}
