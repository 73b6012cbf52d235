/**
 * The team server's fusion examples (server migration 13; store/contract/fusion-examples.ts): one
 * row per robot, shared by the nodes (a node that starts reads what the last one saved). Written
 * on the pool, outside the store's transactions, as the vector cache is: not a change of the
 * knowledge base.
 * @module
 */
import type { FusionExampleStore } from '../../contract/fusion-examples';
import type { RobotKey } from '../../contract/records';
import type { Database } from '../database';
import { mappedError } from '../database-errors';

export class PostgresFusionExamples implements FusionExampleStore {
  constructor(private readonly db: Database) {}

  async load(robot: RobotKey): Promise<Uint8Array | null> {
    const rows = await this.db.all<{ examples: Buffer }>(
      'SELECT examples FROM fusion_examples WHERE tenant_id = $1 AND robot_id = $2',
      [robot.tenantId, robot.robotId],
    );
    return rows[0]?.examples ?? null;
  }

  async save(robot: RobotKey, bytes: Uint8Array): Promise<void> {
    await this.db.connections
      .query(
        `INSERT INTO fusion_examples (tenant_id, robot_id, examples, saved_at)
         VALUES ($1, $2, $3, now())
         ON CONFLICT (tenant_id, robot_id)
         DO UPDATE SET examples = EXCLUDED.examples, saved_at = EXCLUDED.saved_at`,
        [robot.tenantId, robot.robotId, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)],
      )
      .catch((error: unknown) => {
        throw mappedError(error);
      });
  }
}
