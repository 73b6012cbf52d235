/**
 * The spreadsheet writer worker: string rows to .xlsx (export, template, failed rows). Writing
 * uses the xlsx package, whose advisories concern reading crafted files only: this worker never
 * reads a file (reading is sheet-worker.ts, with another reader).
 * @module
 */
import { utils, write } from 'xlsx';
import { toPlainSheets } from './sheet-messages';
import type { PlainSheet, WorkerRequest, WorkerResponse } from './sheet-messages';

interface WorkerScope {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: WorkerResponse, transfer?: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;

function writeBook(sheets: PlainSheet[]): ArrayBuffer {
  const book = utils.book_new();
  for (const sheet of sheets) {
    const ws = utils.aoa_to_sheet(sheet.rows);
    const header = sheet.rows[0] ?? [];
    ws['!cols'] = header.map((_, i) => {
      const longest = Math.max(
        ...sheet.rows.slice(0, 200).map((row) => Math.min(60, (row[i] ?? '').length)),
      );
      return { wch: Math.max(10, longest + 2) };
    });
    utils.book_append_sheet(book, ws, sheet.name.slice(0, 31));
  }
  const out = write(book, { type: 'array', bookType: 'xlsx', compression: true }) as
    ArrayBuffer | Uint8Array;
  return out instanceof ArrayBuffer ? out : out.slice().buffer;
}

scope.onmessage = (event) => {
  const request = event.data;
  try {
    if (request.type !== 'write') throw new Error('this worker only writes');
    const bytes = writeBook(toPlainSheets(request.sheets));
    scope.postMessage({ type: 'written', bytes }, [bytes]);
  } catch (error) {
    scope.postMessage({
      type: 'error',
      message: error instanceof Error ? error.message : String(error),
    });
  }
};
