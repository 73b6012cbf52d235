/**
 * The spreadsheet reader worker: reads .xlsx/.csv files into plain string rows
 * (sheet-worker-parse.ts). A fresh worker runs each job and is then terminated, and the app
 * receives only rebuilt string arrays, so that whatever a crafted file could do to a reader
 * stays in this realm; the app also ends the worker after a deadline (sheet-worker-client.ts).
 * @module
 */
import { toPlainRows } from './sheet-messages';
import type { WorkerRequest, WorkerResponse } from './sheet-messages';
import { parseSpreadsheetBytes } from './sheet-worker-parse';

interface WorkerScope {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: WorkerResponse, transfer?: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;

scope.onmessage = (event) => {
  const request = event.data;
  const reading =
    request.type === 'parse'
      ? parseSpreadsheetBytes(request.fileName, request.bytes)
      : Promise.reject(new Error('this worker only reads'));
  reading.then(
    (sheets) =>
      scope.postMessage({
        type: 'parsed',
        sheets: sheets.map((sheet) => ({ name: sheet.name, rows: toPlainRows(sheet.rows) })),
      }),
    (error: unknown) =>
      scope.postMessage({
        type: 'error',
        message: error instanceof Error ? error.message : String(error),
      }),
  );
};
