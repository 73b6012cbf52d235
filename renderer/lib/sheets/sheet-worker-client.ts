/**
 * Runs one job in a fresh spreadsheet worker and checks what comes back: plain strings only.
 * @module
 */
import { toPlainSheets } from './sheet-messages';
import type { PlainSheet, WorkerRequest, WorkerResponse } from './sheet-messages';

/**
 * A job that runs longer than this is ended: no legitimate file takes a minute to read (5,000
 * rows take about a second), and a reader stuck on a crafted file must not hold a worker forever.
 */
const DEADLINE_MS = 60_000;

/** Reading and writing run in different workers: the writer never sees a user's file. */
function newWorker(request: WorkerRequest): Worker {
  return request.type === 'parse'
    ? new Worker(new URL('./sheet-worker.ts', import.meta.url), { type: 'module' })
    : new Worker(new URL('./sheet-worker-write.ts', import.meta.url), { type: 'module' });
}

function runJob(request: WorkerRequest, transfer: Transferable[] = []): Promise<WorkerResponse> {
  const worker = newWorker(request);
  return new Promise<WorkerResponse>((resolve, reject) => {
    const deadline = window.setTimeout(() => {
      worker.terminate();
      reject(new Error(`it took over ${DEADLINE_MS / 1000} s to read.`));
    }, DEADLINE_MS);
    const end = () => {
      window.clearTimeout(deadline);
      worker.terminate();
    };
    worker.onmessage = (event: MessageEvent<unknown>) => {
      end();
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
      end();
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
