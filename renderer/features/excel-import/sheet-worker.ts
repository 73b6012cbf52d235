/**
 * The spreadsheet worker: reads .xlsx/.csv files into plain string rows and writes string rows
 * to .xlsx. A fresh worker runs each job and is then terminated, so whatever a crafted file does
 * to this realm's prototypes dies with it; the app receives only rebuilt string arrays.
 * @module
 */
import * as XLSX from 'xlsx';
import { toPlainRows, toPlainSheets } from './sheet-messages';
import type { PlainSheet, WorkerRequest, WorkerResponse } from './sheet-messages';

interface WorkerScope {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: WorkerResponse, transfer?: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;

function parse(fileName: string, bytes: ArrayBuffer): PlainSheet[] {
  const isCsv = /\.(csv|txt)$/i.test(fileName);
  const book = isCsv
    ? XLSX.read(new TextDecoder('utf-8').decode(bytes), { type: 'string', raw: true, dense: true })
    : XLSX.read(new Uint8Array(bytes), {
        type: 'array',
        dense: true,
        cellFormula: false,
        cellHTML: false,
        cellStyles: false,
        bookVBA: false,
      });
  return book.SheetNames.map((name) => {
    const sheet = book.Sheets[name];
    const rows = sheet
      ? XLSX.utils.sheet_to_json<unknown[]>(sheet, {
          header: 1,
          raw: false,
          defval: '',
          blankrows: false,
        })
      : [];
    return { name: String(name), rows: toPlainRows(rows) };
  });
}

function write(sheets: PlainSheet[]): ArrayBuffer {
  const book = XLSX.utils.book_new();
  for (const sheet of sheets) {
    const ws = XLSX.utils.aoa_to_sheet(sheet.rows);
    const header = sheet.rows[0] ?? [];
    ws['!cols'] = header.map((_, i) => {
      const longest = Math.max(
        ...sheet.rows.slice(0, 200).map((row) => Math.min(60, (row[i] ?? '').length)),
      );
      return { wch: Math.max(10, longest + 2) };
    });
    XLSX.utils.book_append_sheet(book, ws, sheet.name.slice(0, 31));
  }
  const out = XLSX.write(book, { type: 'array', bookType: 'xlsx', compression: true }) as
    ArrayBuffer | Uint8Array;
  return out instanceof ArrayBuffer ? out : out.slice().buffer;
}

scope.onmessage = (event) => {
  const request = event.data;
  try {
    if (request.type === 'parse') {
      scope.postMessage({ type: 'parsed', sheets: parse(request.fileName, request.bytes) });
    } else {
      const bytes = write(toPlainSheets(request.sheets));
      scope.postMessage({ type: 'written', bytes }, [bytes]);
    }
  } catch (error) {
    scope.postMessage({
      type: 'error',
      message: error instanceof Error ? error.message : String(error),
    });
  }
};
