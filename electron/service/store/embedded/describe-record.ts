/**
 * Journal records in words, for the repair report: "batch of 37 rules into tenant 1 robot
 * default ("退货", "发票", … and 34 more)". The record holds SQL and parameters only; this reads
 * the statements' shapes (INSERT … VALUES, INSERT … SELECT FROM json(b)_each, UPDATE … SET … WHERE,
 * DELETE … WHERE) to pair columns with values, whatever statement the domain wrote. Anything it
 * cannot read is described by its verb and table.
 * @module
 */
import type { JournalRecord, SqlParam } from './journal';

const NOUNS: Record<string, [one: string, many: string]> = {
  rules: ['rule', 'rules'],
  tenants: ['tenant', 'tenants'],
  users: ['administrator', 'administrators'],
  robots: ['robot', 'robots'],
};

/** Columns that name a row, in the order they are tried. */
const LABELS = ['rule_name', 'username', 'company', 'name'];
const MAX_NAMES = 3;

type Row = Map<string, unknown>;

interface Statement {
  verb: 'insert' | 'update' | 'delete' | 'other';
  table: string;
  /** Rows written (insert) or the values set (update), by column. */
  rows: Row[];
  /** Column = value conditions of the WHERE clause. */
  where: Row;
  text: string;
}

/** Splits on commas outside parentheses and quotes. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts;
}

function paramValue(param: SqlParam | undefined): unknown {
  return param !== null && typeof param === 'object' ? param.utf8 : param;
}

/** Reads `?`, `?N` and literals, numbering bare `?` in order of appearance like SQLite. */
class Placeholders {
  private next = 0;
  constructor(private readonly params: readonly SqlParam[]) {}

  value(expression: string): unknown {
    const numbered = /^\?(\d+)$/.exec(expression);
    if (numbered) {
      const index = Number(numbered[1]) - 1;
      this.next = Math.max(this.next, index + 1);
      return paramValue(this.params[index]);
    }
    if (expression === '?') return paramValue(this.params[this.next++]);
    if (/^'.*'$/s.test(expression)) return expression.slice(1, -1).replace(/''/g, "'");
    if (/^-?\d+(\.\d+)?$/.test(expression)) return Number(expression);
    return undefined;
  }
}

function parseStatement(sql: string, params: readonly SqlParam[]): Statement {
  const text = sql.replace(/\s+/g, ' ').trim();
  const values = new Placeholders(params);
  const insert =
    /^INSERT(?: OR \w+)? INTO (\w+) \(([^)]*)\) (?:VALUES \((.*)\)|SELECT (.*?) FROM jsonb?_each\(CAST\((\?\d*) AS TEXT\)\))/i.exec(
      text,
    );
  if (insert) {
    const [, table = '', columnList = '', valueList, selectList, source] = insert;
    const columns = columnList.split(',').map((c) => c.trim());
    if (valueList !== undefined) {
      const row: Row = new Map();
      splitTopLevel(valueList).forEach((v, i) => row.set(columns[i] ?? '', values.value(v)));
      return { verb: 'insert', table, rows: [row], where: new Map(), text };
    }
    // INSERT … SELECT … FROM json(b)_each(?): one row per element of the JSON array parameter.
    const items = splitTopLevel(selectList ?? '');
    let elements: unknown[] = [];
    try {
      const parsed = JSON.parse(String(values.value(source ?? '') ?? '')) as unknown;
      if (Array.isArray(parsed)) elements = parsed;
    } catch {
      // described without the rows' contents
    }
    const fixed = items.map((item) => values.value(item));
    const rows = elements.map((element) => {
      const row: Row = new Map();
      items.forEach((item, i) => {
        const field = /^value ->>? (\d+)$/.exec(item);
        const value = field && Array.isArray(element) ? element[Number(field[1])] : fixed[i];
        row.set(columns[i] ?? '', value);
      });
      return row;
    });
    return { verb: 'insert', table, rows, where: new Map(), text };
  }
  const update = /^UPDATE (\w+) SET (.*?)(?: WHERE (.*))?$/i.exec(text);
  if (update) {
    const [, table = '', assignments = '', condition] = update;
    const row: Row = new Map();
    for (const assignment of splitTopLevel(assignments)) {
      const [column = '', expression = ''] = assignment.split(/\s*=\s*/);
      row.set(column, values.value(expression));
    }
    return { verb: 'update', table, rows: [row], where: whereOf(condition, values), text };
  }
  const remove = /^DELETE FROM (\w+)(?: WHERE (.*))?$/i.exec(text);
  if (remove) {
    const [, table = '', condition] = remove;
    return { verb: 'delete', table, rows: [], where: whereOf(condition, values), text };
  }
  return { verb: 'other', table: '', rows: [], where: new Map(), text };
}

function whereOf(condition: string | undefined, values: Placeholders): Row {
  const where: Row = new Map();
  for (const part of (condition ?? '').split(/\s+AND\s+/i)) {
    const match = /^(\w+)\s*=\s*(\S+)$/.exec(part.trim());
    if (match) where.set(match[1] ?? '', values.value(match[2] ?? ''));
  }
  return where;
}

function quote(value: unknown): string {
  const text = String(value);
  return `"${text.length > 40 ? `${text.slice(0, 40)}…` : text}"`;
}

/** "tenant 1 robot default", from whichever of the two the row or condition has. */
function scope(row: Row): string {
  const parts: string[] = [];
  if (row.get('tenant_id') !== undefined) parts.push(`tenant ${String(row.get('tenant_id'))}`);
  if (row.get('robot_id') !== undefined) parts.push(`robot ${String(row.get('robot_id'))}`);
  return parts.join(' ');
}

function label(row: Row): string | undefined {
  for (const column of LABELS) if (row.get(column) !== undefined) return quote(row.get(column));
  return undefined;
}

function names(rows: readonly Row[]): string {
  const labels = rows.map(label).filter((l): l is string => l !== undefined);
  if (labels.length === 0) return '';
  const shown = labels.slice(0, MAX_NAMES).join(', ');
  const more = labels.length - MAX_NAMES;
  return ` (${shown}${more > 0 ? ` and ${more} more` : ''})`;
}

function describeStatement(statement: Statement): string {
  const { verb, table, rows, where } = statement;
  if (verb === 'other')
    return `schema change: ${statement.text.slice(0, 60)}${statement.text.length > 60 ? '…' : ''}`;
  if (table === '_migrations' && verb === 'insert') {
    const row = rows[0] ?? new Map();
    return `schema migration ${String(row.get('version'))} (${String(row.get('name'))})`;
  }
  const [one, many] = NOUNS[table] ?? [`${table} row`, `${table} rows`];
  if (verb === 'insert') {
    const first = rows[0] ?? new Map<string, unknown>();
    const where = scope(first);
    if (rows.length === 1) {
      const id =
        table === 'tenants' || table === 'robots'
          ? ` ${String(first.get(table === 'tenants' ? 'tenant_id' : 'robot_id'))}`
          : '';
      const inTenant = table === 'tenants' || table === 'robots' ? '' : where;
      const into = table === 'robots' ? ` in tenant ${String(first.get('tenant_id'))}` : '';
      return `${one}${id}${names(rows)} added${inTenant ? ` to ${inTenant}` : ''}${into}`;
    }
    return `batch of ${rows.length} ${many}${where ? ` into ${where}` : ''}${names(rows)}`;
  }
  const key = ['rule_id', 'user_id', 'robot_id', 'tenant_id'].find((c) => where.has(c));
  const target = key
    ? ` ${String(where.get(key))}`
    : where.size > 0
      ? ` where ${[...where].map(([c, v]) => `${c} = ${String(v)}`).join(' and ')}`
      : '';
  const subject = `${one}${target}`;
  // A robot is named by its id already: its place is its tenant.
  const placeRow = new Map(where);
  if (table === 'robots') placeRow.delete('robot_id');
  if (table === 'tenants') placeRow.delete('tenant_id');
  const place = scope(placeRow);
  const inPlace = place ? ` in ${place}` : '';
  if (verb === 'delete') return `${subject} deleted${inPlace}`;
  const changed = [...(rows[0]?.keys() ?? [])].filter(
    (c) => c !== 'updated_at' && c !== 'name_key',
  );
  return `${subject} changed (${changed.join(', ')})${inPlace}`;
}

/** One line for a record: its statements in words, repeats counted. */
export function describeRecord(record: JournalRecord): string {
  const lines: string[] = [];
  const counts = new Map<string, number>();
  for (const [index, params] of record.ops) {
    const sql = record.sql[index];
    const line =
      sql === undefined
        ? 'an unreadable statement'
        : describeStatement(parseStatement(sql, params));
    if (!counts.has(line)) lines.push(line);
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  if (lines.length === 0) return 'an empty transaction';
  const shown = lines.slice(0, 5).map((line) => {
    const count = counts.get(line) ?? 1;
    return count > 1 ? `${count} × ${line}` : line;
  });
  const more = lines.length - shown.length;
  return `${shown.join('; ')}${more > 0 ? `; and ${more} more statement(s)` : ''}`;
}
