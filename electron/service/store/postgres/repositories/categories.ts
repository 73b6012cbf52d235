/**
 * The team server's categories (statements: sql/categories.ts). The contract
 * (store/contract/categories.ts) states what each method returns.
 * @module
 */
import type { CategoryRepository } from '../../contract/categories';
import type { CategoryRecord, RobotKey } from '../../contract/records';
import { postgres } from '../../sql/dialect';
import * as categories from '../../sql/categories';
import type { Database, Reader, Tx } from '../database';
import type { Stamp } from '../../sql/rule-rows';

const SQL = categories.statements(postgres);

export class PostgresCategoryRepository implements CategoryRepository {
  constructor(private readonly db: Database) {}

  async list(robot: RobotKey) {
    return (
      await this.db.all<categories.CategoryRow>(SQL.list, [robot.tenantId, robot.robotId])
    ).map(categories.toCategoryRecord);
  }

  async find(robot: RobotKey, categoryId: string) {
    return this.findIn(this.db, robot, categoryId);
  }

  async create(robot: RobotKey, name: string, nameKey: string, now: number) {
    return this.db.write(async (tx) => {
      const row = await tx.get<{ category_id: number }>(`${SQL.insert} RETURNING category_id`, [
        robot.tenantId,
        robot.robotId,
        name,
        nameKey,
        now,
      ]);
      return (await this.findIn(tx, robot, String(row?.category_id))) as CategoryRecord;
    });
  }

  async rename(robot: RobotKey, categoryId: string, name: string, nameKey: string) {
    const id = categories.asCategoryId(categoryId);
    // Looked at first: a refused call writes nothing.
    if (id === null || !(await this.findIn(this.db, robot, categoryId))) return undefined;
    return this.db.write(async (tx) => {
      const changed = await tx.run(SQL.rename, [robot.tenantId, robot.robotId, id, name, nameKey]);
      return changed === 0 ? undefined : this.findIn(tx, robot, categoryId);
    });
  }

  async merge(robot: RobotKey, from: readonly string[], into: string, now: number, actor: string) {
    return this.db.write(async (tx) => {
      const moved: string[] = [];
      for (const categoryId of new Set(from)) {
        if (categoryId === into) continue;
        moved.push(...(await this.refile(tx, robot, [categoryId, into], { now, actor })));
        await this.deleteIn(tx, robot, categoryId);
      }
      return moved;
    });
  }

  async remove(robot: RobotKey, categoryId: string, now: number, actor: string) {
    return this.db.write(async (tx) => {
      const moved = await this.refile(tx, robot, [categoryId, ''], { now, actor });
      await this.deleteIn(tx, robot, categoryId);
      return moved;
    });
  }

  /** Files the rules of one category under another ('' = none); returns their ids. */
  private async refile(tx: Tx, robot: RobotKey, [from, into]: [string, string], stamp: Stamp) {
    const rows = await tx.all<{ rule_id: string; rule_seq: number }>(
      `${SQL.refile} RETURNING rule_id, rule_seq`,
      [robot.tenantId, robot.robotId, from, into, stamp.now, stamp.actor],
    );
    // In the order the embedded store reads them: by position.
    return rows.sort((a, b) => a.rule_seq - b.rule_seq).map((row) => row.rule_id);
  }

  private async deleteIn(tx: Tx, robot: RobotKey, categoryId: string): Promise<void> {
    const id = categories.asCategoryId(categoryId);
    if (id !== null) await tx.run(SQL.delete, [robot.tenantId, robot.robotId, id]);
  }

  private async findIn(reader: Reader, robot: RobotKey, categoryId: string) {
    const id = categories.asCategoryId(categoryId);
    if (id === null) return undefined;
    const row = await reader.get<categories.CategoryRow>(SQL.find, [
      robot.tenantId,
      robot.robotId,
      id,
    ]);
    return row && categories.toCategoryRecord(row);
  }
}
