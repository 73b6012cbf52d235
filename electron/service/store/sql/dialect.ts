/**
 * The two spellings of the statements both stores share: SQLite's (the embedded store) and
 * PostgreSQL's (the team server). A shared statement is written once, in SQLite's spelling with
 * numbered parameters (`?1`), and asks its dialect for the few constructs the two spell
 * differently. Neither store's code is imported here: a store passes its dialect in.
 * @module
 */

/** A value both databases bind as it is. */
export type Scalar = string | number | null;

/** A column type: of a parameter's cast, or of a list's values. */
export type ColumnType = 'text' | 'bigint';

export interface Dialect<List> {
  /** The nth parameter (from 1): `?n` in SQLite, `$n` in PostgreSQL. */
  param(n: number): string;
  /** A statement written with `?n` parameters, as this database reads it. */
  text(sql: string): string;
  /**
   * A placeholder cast to a type where PostgreSQL cannot infer it (a value compared in an
   * expression); SQLite takes the value as bound.
   */
  typed(placeholder: string, type: ColumnType): string;
  /** An expression compared as bytes (SQLite's only order; PostgreSQL's `COLLATE "C"`). */
  bytes(expression: string): string;
  /** Equal, or both null (SQLite's `IS`). */
  same(a: string, b: string): string;
  /** A column the planner must not walk an index of (SQLite's unary `+`; PostgreSQL chooses well). */
  unindexed(column: string): string;
  /** The value a list is bound as: JSON text for SQLite, an array for PostgreSQL. */
  list(values: readonly string[] | readonly number[]): List;
  /** `expression` is one of the values of the list bound at `placeholder`. */
  inList(expression: string, placeholder: string, type: ColumnType): string;
}

export const sqlite: Dialect<string> = {
  param: (n) => `?${n}`,
  text: (sql) => sql,
  typed: (placeholder) => placeholder,
  bytes: (expression) => expression,
  same: (a, b) => `${a} IS ${b}`,
  unindexed: (column) => `+${column}`,
  list: (values) => JSON.stringify(values),
  inList: (expression, placeholder) =>
    `${expression} IN (SELECT value FROM json_each(CAST(${placeholder} AS TEXT)))`,
};

export const postgres: Dialect<readonly string[] | readonly number[]> = {
  param: (n) => `$${n}`,
  text: (sql) => sql.replace(/\?(\d+)/g, '$$$1'),
  typed: (placeholder, type) => `${placeholder}::${type}`,
  bytes: (expression) => `${expression} COLLATE "C"`,
  same: (a, b) => `${a} IS NOT DISTINCT FROM ${b}`,
  unindexed: (column) => column,
  list: (values) => values,
  inList: (expression, placeholder, type) => `${expression} = ANY(${placeholder}::${type}[])`,
};

/** Each statement of a set (written with `?n` parameters) as `dialect` reads it. */
export function spelled<K extends string, L>(
  dialect: Dialect<L>,
  texts: Record<K, string>,
): Record<K, string> {
  const inDialect = { ...texts };
  for (const key in inDialect) inDialect[key] = dialect.text(inDialect[key]);
  return inDialect;
}

/**
 * `column = <parameter>` for each field `changes` sets (of those `columns` names), the
 * parameters numbered from `from` on, and the values to bind to them.
 */
export function assignments<F extends string, L>(
  dialect: Dialect<L>,
  columns: Record<F, string>,
  changes: Partial<Record<F, Scalar>>,
  from: number,
): { sets: string[]; values: Scalar[] } {
  const sets: string[] = [];
  const values: Scalar[] = [];
  for (const field in columns) {
    const value = changes[field];
    if (value === undefined) continue;
    sets.push(`${columns[field]} = ${dialect.param(from + values.length)}`);
    values.push(value);
  }
  return { sets, values };
}

/** The parameters of a statement built piece by piece: each value bound gives its placeholder. */
export class Params<List> {
  readonly values: (Scalar | List)[] = [];

  constructor(private readonly dialect: Dialect<List>) {}

  add(value: Scalar | List): string {
    this.values.push(value);
    return this.dialect.param(this.values.length);
  }
}
