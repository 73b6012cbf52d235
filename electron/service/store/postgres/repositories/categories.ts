/**
 * The team server's categories (the embedded store's statements in PostgreSQL's SQL).
 * @module
 */
import type { CategoryRepository } from '../../contract/categories';
import type { CategoryRecord, RobotKey } from '../../contract/records';
import {
  SELECT_CATEGORIES,
  asCategoryId,
  toCategoryRecord,
} from '../../embedded/repositories/category-repository';
import type { CategoryRow } from '../../embedded/repositories/category-repository';
import type { Database, Reader, Tx } from '../database';

const OF_ROBOT = 'c.tenant_id = $1 AND c.robot_id = $2';
export class PostgresCategoryRepository implements CategoryRepository {
  constructor(private readonly db: Database) {}

  async list(robot: RobotKey): Promise<CategoryRecord[]> {
    const rows = await this.db.all<CategoryRow>(
      `${SELECT_CATEGORIES} WHERE ${OF_ROBOT} ORDER BY c.name_key COLLATE "C"`,
      [robot.tenantId, robot.robotId],
    );
    return rows.map(toCategoryRecord);
  }

  async find(robot: RobotKey, categoryId: string): Promise<CategoryRecord | undefined> {
    return this.findIn(this.db, robot, categoryId);
  }

  async create(
    robot: RobotKey,
    name: string,
    nameKey: string,
    now: number,
  ): Promise<CategoryRecord> {
    return this.db.write(async (tx) => {
      const row = await tx.get<{ category_id: number }>(
        `INSERT INTO categories (tenant_id, robot_id, name, name_key, created_at)
         VALUES ($1, $2, $3, $4, $5) RETURNING category_id`,
        [robot.tenantId, robot.robotId, name, nameKey, now],
      );
      return (await this.findIn(tx, robot, String(row?.category_id))) as CategoryRecord;
    });
  }

  async rename(
    robot: RobotKey,
    categoryId: string,
    name: string,
    nameKey: string,
  ): Promise<CategoryRecord | undefined> {
    const id = asCategoryId(categoryId);
    // Looked at first: a refused call writes nothing.
    if (id === null || !(await this.findIn(this.db, robot, categoryId))) return undefined;
    return this.db.write(async (tx) => {
      const changed = await tx.run(
        'UPDATE categories SET name = $4, name_key = $5 WHERE tenant_id = $1 AND robot_id = $2 AND category_id = $3',
        [robot.tenantId, robot.robotId, id, name, nameKey],
      );
      return changed === 0 ? undefined : this.findIn(tx, robot, categoryId);
    });
  }

  async merge(
    robot: RobotKey,
    from: readonly string[],
    into: string,
    now: number,
    actor: string,
  ): Promise<string[]> {
    return this.db.write(async (tx) => {
      const moved: string[] = [];
      for (const categoryId of new Set(from)) {
        if (categoryId === into) continue;
        moved.push(...(await this.refile(tx, robot, categoryId, into, now, actor)));
        await this.deleteIn(tx, robot, categoryId);
      }
      return moved;
    });
  }

  async remove(robot: RobotKey, categoryId: string, now: number, actor: string): Promise<string[]> {
    return this.db.write(async (tx) => {
      const moved = await this.refile(tx, robot, categoryId, '', now, actor);
      await this.deleteIn(tx, robot, categoryId);
      return moved;
    });
  }

  /** Files the rules of one category under another ('' = none); returns their ids. */
  private async refile(
    tx: Tx,
    robot: RobotKey,
    from: string,
    into: string,
    now: number,
    actor: string,
  ): Promise<string[]> {
    const rows = await tx.all<{ rule_id: string; rule_seq: number }>(
      `UPDATE rules SET category_id = $4, updated_at = $5, updated_by = $6
       WHERE tenant_id = $1 AND robot_id = $2 AND category_id = $3 RETURNING rule_id, rule_seq`,
      [robot.tenantId, robot.robotId, from, into, now, actor],
    );
    // In the order the embedded store reads them: by position.
    return rows.sort((a, b) => a.rule_seq - b.rule_seq).map((row) => row.rule_id);
  }

  private async deleteIn(tx: Tx, robot: RobotKey, categoryId: string): Promise<void> {
    const id = asCategoryId(categoryId);
    if (id === null) return;
    await tx.run(
      'DELETE FROM categories WHERE tenant_id = $1 AND robot_id = $2 AND category_id = $3',
      [robot.tenantId, robot.robotId, id],
    );
  }

  private async findIn(
    reader: Reader,
    robot: RobotKey,
    categoryId: string,
  ): Promise<CategoryRecord | undefined> {
    const id = asCategoryId(categoryId);
    if (id === null) return undefined;
    const row = await reader.get<CategoryRow>(
      `${SELECT_CATEGORIES} WHERE ${OF_ROBOT} AND c.category_id = $3`,
      [robot.tenantId, robot.robotId, id],
    );
    return row ? toCategoryRecord(row) : undefined;
  }
}
