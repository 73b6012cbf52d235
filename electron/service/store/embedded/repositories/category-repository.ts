/**
 * The embedded store's categories.
 * @module
 */
import type { CategoryRepository } from '../../contract/categories';
import type { CategoryRecord, RobotKey } from '../../contract/records';
import type { Store, Tx } from '../database';
import { mappingUniqueViolations } from './unique-violations';

export interface CategoryRow {
  [column: string]: string | number;
  category_id: number;
  tenant_id: number;
  robot_id: string;
  name: string;
  name_key: string;
  created_at: number;
  rules: number;
}

const OF_ROBOT = 'c.tenant_id = ? AND c.robot_id = ?';
/** A robot's categories with their rule counts (the caller adds its conditions). */
export const SELECT_CATEGORIES = `SELECT c.category_id, c.tenant_id, c.robot_id, c.name, c.name_key, c.created_at,
  (SELECT COUNT(*) FROM rules AS r WHERE r.tenant_id = c.tenant_id AND r.robot_id = c.robot_id
    AND r.category_id = CAST(c.category_id AS TEXT)) AS rules
FROM categories AS c`;

export function toCategoryRecord(row: CategoryRow): CategoryRecord {
  return {
    tenantId: Number(row.tenant_id),
    robotId: row.robot_id,
    categoryId: String(row.category_id),
    name: row.name,
    nameKey: row.name_key,
    createdAt: Number(row.created_at),
    rules: Number(row.rules),
  };
}

/**
 * Category ids are whole numbers of at most 15 digits (safe integers: a longer one would reach
 * SQL rounded to a neighbour); any other text names no category.
 */
export const asCategoryId = (categoryId: string): number | null =>
  /^[1-9]\d{0,14}$/.test(categoryId) ? Number(categoryId) : null;

export class SqlJsCategoryRepository implements CategoryRepository {
  constructor(private readonly store: Store) {}

  async list(robot: RobotKey): Promise<CategoryRecord[]> {
    return this.store
      .all<CategoryRow>(`${SELECT_CATEGORIES} WHERE ${OF_ROBOT} ORDER BY c.name_key`, [
        robot.tenantId,
        robot.robotId,
      ])
      .map(toCategoryRecord);
  }

  async find(robot: RobotKey, categoryId: string): Promise<CategoryRecord | undefined> {
    return this.findIn(this.store, robot, categoryId);
  }

  async create(
    robot: RobotKey,
    name: string,
    nameKey: string,
    now: number,
  ): Promise<CategoryRecord> {
    return mappingUniqueViolations(() =>
      this.store.write((tx) => {
        tx.run(
          'INSERT INTO categories (tenant_id, robot_id, name, name_key, created_at) VALUES (?, ?, ?, ?, ?)',
          [robot.tenantId, robot.robotId, name, nameKey, now],
        );
        const id = Number(tx.get<{ id: number }>('SELECT last_insert_rowid() AS id')?.id);
        return this.findIn(tx, robot, String(id)) as CategoryRecord;
      }),
    );
  }

  async rename(
    robot: RobotKey,
    categoryId: string,
    name: string,
    nameKey: string,
  ): Promise<CategoryRecord | undefined> {
    const id = asCategoryId(categoryId);
    // Looked at first: a refused call writes nothing (no journal record).
    if (id === null || !this.findIn(this.store, robot, categoryId)) return undefined;
    return mappingUniqueViolations(() =>
      this.store.write((tx) => {
        const changed = tx.run(
          'UPDATE categories SET name = ?, name_key = ? WHERE category_id = ? AND tenant_id = ? AND robot_id = ?',
          [name, nameKey, id, robot.tenantId, robot.robotId],
        );
        return changed === 0 ? undefined : this.findIn(tx, robot, categoryId);
      }),
    );
  }

  async merge(
    robot: RobotKey,
    from: readonly string[],
    into: string,
    now: number,
    actor: string,
  ): Promise<string[]> {
    return this.store.write((tx) => {
      const moved: string[] = [];
      for (const categoryId of new Set(from)) {
        if (categoryId === into) continue;
        moved.push(...this.refile(tx, robot, categoryId, into, now, actor));
        this.deleteIn(tx, robot, categoryId);
      }
      return moved;
    });
  }

  async remove(robot: RobotKey, categoryId: string, now: number, actor: string): Promise<string[]> {
    return this.store.write((tx) => {
      const moved = this.refile(tx, robot, categoryId, '', now, actor);
      this.deleteIn(tx, robot, categoryId);
      return moved;
    });
  }

  /** Files the rules of one category under another ('' = none); returns their ids. */
  private refile(
    tx: Tx,
    robot: RobotKey,
    from: string,
    into: string,
    now: number,
    actor: string,
  ): string[] {
    const where = 'tenant_id = ? AND robot_id = ? AND category_id = ?';
    const params = [robot.tenantId, robot.robotId, from];
    const ids = tx
      .all<{ rule_id: string }>(`SELECT rule_id FROM rules WHERE ${where}`, params)
      .map((row) => row.rule_id);
    if (ids.length > 0) {
      tx.run(`UPDATE rules SET category_id = ?, updated_at = ?, updated_by = ? WHERE ${where}`, [
        into,
        now,
        actor,
        ...params,
      ]);
    }
    return ids;
  }

  private deleteIn(tx: Tx, robot: RobotKey, categoryId: string): void {
    const id = asCategoryId(categoryId);
    if (id === null) return;
    tx.run('DELETE FROM categories WHERE category_id = ? AND tenant_id = ? AND robot_id = ?', [
      id,
      robot.tenantId,
      robot.robotId,
    ]);
  }

  private findIn(
    reader: Pick<Tx, 'get'>,
    robot: RobotKey,
    categoryId: string,
  ): CategoryRecord | undefined {
    const id = asCategoryId(categoryId);
    if (id === null) return undefined;
    const row = reader.get<CategoryRow>(
      `${SELECT_CATEGORIES} WHERE c.category_id = ? AND ${OF_ROBOT}`,
      [id, robot.tenantId, robot.robotId],
    );
    return row ? toCategoryRecord(row) : undefined;
  }
}
