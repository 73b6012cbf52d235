/**
 * Messages between the app and the spreadsheet workers. Only plain strings and arrays of strings
 * cross (plus the file's bytes): never an object a reader built from an untrusted file.
 * @module
 */

export interface PlainSheet {
  name: string;
  rows: string[][];
}

export type WorkerRequest =
  { type: 'parse'; fileName: string; bytes: ArrayBuffer } | { type: 'write'; sheets: PlainSheet[] };

export type WorkerResponse =
  | { type: 'parsed'; sheets: PlainSheet[] }
  | { type: 'written'; bytes: ArrayBuffer }
  | { type: 'error'; message: string };

/** Copies `value` into fresh arrays of strings; anything else is refused. */
export function toPlainRows(value: unknown): string[][] {
  if (!Array.isArray(value)) throw new Error('rows are not a list');
  return value.map((row: unknown) => {
    if (!Array.isArray(row)) throw new Error('a row is not a list');
    return Array.from(row as unknown[], (cell) => {
      if (typeof cell === 'string') return `${cell}`;
      if (cell === undefined || cell === null) return '';
      if (typeof cell === 'number' || typeof cell === 'boolean') return String(cell);
      throw new Error('a cell is not text');
    });
  });
}

export function toPlainSheets(value: unknown): PlainSheet[] {
  if (!Array.isArray(value)) throw new Error('sheets are not a list');
  return value.map((sheet: unknown) => {
    const { name, rows } = (sheet ?? {}) as { name?: unknown; rows?: unknown };
    if (typeof name !== 'string') throw new Error('a sheet has no name');
    return { name: `${name}`, rows: toPlainRows(rows) };
  });
}
