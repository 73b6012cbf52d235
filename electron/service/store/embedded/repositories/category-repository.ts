/**
 * The embedded store's categories (statements: sql/categories.ts). The contract
 * (store/contract/categories.ts) states what each method returns.
 * @module
 */
import type { CategoryRepository } from '../../contract/categories';
import type { CategoryRecord, RobotKey } from '../../contract/records';
import { sqlite } from '../../sql/dialect';
import * as categories from '../../sql/categories';
import type { Reader, Store, Tx } from '../database';
import { mappingUniqueViolations } from './unique-violations';
import type { Stamp } from '../../sql/rule-rows';

const SQL = categories.statements(sqlite);

/** The rules filed under category ?3 of the robot. */
const FILED =
  'SELECT rule_id FROM rules WHERE tenant_id = ?1 AND robot_id = ?2 AND category_id = ?3';

export class SqlJsCategoryRepository implements CategoryRepository {
  constructor(private readonly store: Store) {}

  async list(robot: RobotKey) {
    const key = [robot.tenantId, robot.robotId];
    return this.store.all<categories.CategoryRow>(SQL.list, key).map(categories.toCategoryRecord);
  }

  async find(robot: RobotKey, categoryId: string) {
    return this.findIn(this.store, robot, categoryId);
  }

  async create(robot: RobotKey, name: string, nameKey: string, now: number) {
    return mappingUniqueViolations(() =>
      this.store.write((tx) => {
        tx.run(SQL.insert, [robot.tenantId, robot.robotId, name, nameKey, now]);
        const id = Number(tx.get<{ id: number }>('SELECT last_insert_rowid() AS id')?.id);
        return this.findIn(tx, robot, String(id)) as CategoryRecord;
      }),
    );
  }

  async rename(robot: RobotKey, categoryId: string, name: string, nameKey: string) {
    const id = categories.asCategoryId(categoryId);
    // Looked at first: a refused call writes nothing (no journal record).
    if (id === null || !this.findIn(this.store, robot, categoryId)) return undefined;
    return mappingUniqueViolations(() =>
      this.store.write((tx) => {
        const changed = tx.run(SQL.rename, [robot.tenantId, robot.robotId, id, name, nameKey]);
        return changed === 0 ? undefined : this.findIn(tx, robot, categoryId);
      }),
    );
  }

  async merge(robot: RobotKey, from: readonly string[], into: string, now: number, actor: string) {
    return this.store.write((tx) => {
      const moved: string[] = [];
      for (const categoryId of new Set(from)) {
        if (categoryId === into) continue;
        moved.push(...this.refile(tx, robot, [categoryId, into], { now, actor }));
        this.deleteIn(tx, robot, categoryId);
      }
      return moved;
    });
  }

  async remove(robot: RobotKey, categoryId: string, now: number, actor: string) {
    return this.store.write((tx) => {
      const moved = this.refile(tx, robot, [categoryId, ''], { now, actor });
      this.deleteIn(tx, robot, categoryId);
      return moved;
    });
  }

  /** Files the rules of one category under another ('' = none); returns their ids. */
  private refile(tx: Tx, robot: RobotKey, [from, into]: [string, string], stamp: Stamp): string[] {
    const filed = [robot.tenantId, robot.robotId, from];
    const ids = tx.all<{ rule_id: string }>(FILED, filed).map((row) => row.rule_id);
    if (ids.length > 0) tx.run(SQL.refile, [...filed, into, stamp.now, stamp.actor]);
    return ids;
  }

  private deleteIn(tx: Tx, robot: RobotKey, categoryId: string): void {
    const id = categories.asCategoryId(categoryId);
    if (id !== null) tx.run(SQL.delete, [robot.tenantId, robot.robotId, id]);
  }

  private findIn(reader: Reader, robot: RobotKey, categoryId: string): CategoryRecord | undefined {
    const id = categories.asCategoryId(categoryId);
    if (id === null) return undefined;
    const row = reader.get<categories.CategoryRow>(SQL.find, [robot.tenantId, robot.robotId, id]);
    return row && categories.toCategoryRecord(row);
  }
}
