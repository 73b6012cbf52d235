/**
 * The unique constraints of the shared schema and what each protects, written once; each
 * database names a broken one its own way: SQLite in its message, PostgreSQL by the constraint's
 * default name (`<table>_<columns>_key`).
 * @module
 */
import type { UniqueKey } from '../contract/errors';

interface UniqueConstraint {
  table: string;
  columns: readonly string[];
  key: UniqueKey;
}

const CONSTRAINTS: readonly UniqueConstraint[] = [
  { table: 'rules', columns: ['tenant_id', 'robot_id', 'name_key'], key: 'rule-name' },
  { table: 'rules', columns: ['rule_id'], key: 'rule-id' },
  { table: 'users', columns: ['tenant_id', 'username_key'], key: 'username' },
  { table: 'categories', columns: ['tenant_id', 'robot_id', 'name_key'], key: 'category-name' },
];

/** SQLite's message: `UNIQUE constraint failed: rules.tenant_id, rules.robot_id, …`. */
const SQLITE_MESSAGES = CONSTRAINTS.map(({ table, columns, key }) => ({
  text: `UNIQUE constraint failed: ${columns.map((column) => `${table}.${column}`).join(', ')}`,
  key,
}));

const POSTGRES_NAMES = new Map(
  CONSTRAINTS.map(({ table, columns, key }) => [`${table}_${columns.join('_')}_key`, key]),
);

/** The key a SQLite error message says was taken, if it is one of the schema's. */
export const uniqueKeyInSqliteMessage = (message: string): UniqueKey | undefined =>
  SQLITE_MESSAGES.find(({ text }) => message.includes(text))?.key;

/** The key a PostgreSQL constraint protects, if it is one of the schema's. */
export const uniqueKeyOfPostgresConstraint = (constraint: string): UniqueKey | undefined =>
  POSTGRES_NAMES.get(constraint);
