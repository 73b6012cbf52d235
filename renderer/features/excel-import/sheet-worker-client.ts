/**
 * Runs one job in a fresh spreadsheet worker and checks what comes back: plain strings only.
 * @module
 */
import { toPlainSheets } from './sheet-messages';
import type { PlainSheet, WorkerRequest, WorkerResponse } from './sheet-messages';

function runJob(request: WorkerRequest, transfer: Transferable[] = []): Promise<WorkerResponse> {
  const worker = new Worker(new URL('./sheet-worker.ts', import.meta.url), { type: 'module' });
  return new Promise<WorkerResponse>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<unknown>) => {
      worker.terminate();
      const data = event.data as { type?: unknown } | null;
      if (data?.type === 'parsed') {
        resolve({ type: 'parsed', sheets: toPlainSheets((data as { sheets?: unknown }).sheets) });
      } else if (data?.type === 'written') {
        const bytes = (data as { bytes?: unknown }).bytes;
        if (bytes instanceof ArrayBuffer) resolve({ type: 'written', bytes });
        else reject(new Error('The worker returned no file.'));
      } else {
        const message = (data as { message?: unknown } | null)?.message;
        reject(new Error(typeof message === 'string' ? message : 'The file could not be read.'));
      }
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message || 'The spreadsheet worker failed.'));
    };
    worker.postMessage(request, transfer);
  });
}

/** Reads an .xlsx or .csv file into sheets of text rows. */
export async function parseSpreadsheet(file: File): Promise<PlainSheet[]> {
  const bytes = await file.arrayBuffer();
  const response = await runJob({ type: 'parse', fileName: file.name, bytes }, [bytes]);
  if (response.type !== 'parsed') throw new Error('Unexpected answer from the worker.');
  return response.sheets;
}

/** Writes sheets of text rows to an .xlsx file. */
export async function writeSpreadsheet(sheets: PlainSheet[]): Promise<Blob> {
  const response = await runJob({ type: 'write', sheets });
  if (response.type !== 'written') throw new Error('Unexpected answer from the worker.');
  return new Blob([response.bytes], {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });
}

export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
