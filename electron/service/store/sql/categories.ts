/**
 * Categories as both stores keep them, and the statements both run on `categories` (each in its
 * dialect). A category's id is the store's number; rules carry it as text.
 * @module
 */
import type { CategoryRecord } from '../contract/records';
import { spelled } from './dialect';
import type { Dialect } from './dialect';

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

/** A robot's categories with their rule counts. */
const SELECT_CATEGORIES = `SELECT c.category_id, c.tenant_id, c.robot_id, c.name, c.name_key, c.created_at,
  (SELECT COUNT(*) FROM rules AS r WHERE r.tenant_id = c.tenant_id AND r.robot_id = c.robot_id
    AND r.category_id = CAST(c.category_id AS TEXT)) AS rules
FROM categories AS c WHERE c.tenant_id = ?1 AND c.robot_id = ?2`;

/** ?1 and ?2: the robot; ?3: the category, where one is named. */
const OF_CATEGORY = 'tenant_id = ?1 AND robot_id = ?2 AND category_id = ?3';

export function statements<L>(dialect: Dialect<L>) {
  return spelled(dialect, {
    list: `${SELECT_CATEGORIES} ORDER BY ${dialect.bytes('c.name_key')}`,
    find: `${SELECT_CATEGORIES} AND c.category_id = ?3`,
    insert:
      'INSERT INTO categories (tenant_id, robot_id, name, name_key, created_at) VALUES (?1, ?2, ?3, ?4, ?5)',
    /** ?4 and ?5: the new name and its key. */
    rename: `UPDATE categories SET name = ?4, name_key = ?5 WHERE ${OF_CATEGORY}`,
    delete: `DELETE FROM categories WHERE ${OF_CATEGORY}`,
    /** Files the rules of category ?3 under ?4 ('' = none), changed at ?5 by ?6. */
    refile: `UPDATE rules SET category_id = ?4, updated_at = ?5, updated_by = ?6 WHERE ${OF_CATEGORY}`,
  });
}
