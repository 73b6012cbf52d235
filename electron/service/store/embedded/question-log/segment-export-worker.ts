/**
 * The export's worker thread (decision 133): makes the CSV rows of the segments it is given
 * (segment-csv.ts) with its own heap, and posts them as bytes (their buffer transferred, not
 * copied) while the main thread has asked for more: the main thread only writes them to the
 * response. Each `credit` message from the main thread allows that many more chunks.
 * @module
 */
import { parentPort, workerData } from 'node:worker_threads';
import { csvChunks } from './segment-csv';
import type { ExportJob } from './segment-csv';
import type { ExportMessage } from './segment-export';

const port = parentPort;
if (port) {
  let credit = 0;
  let granted: (() => void) | null = null;
  port.on('message', (message: { credit: number }) => {
    credit += message.credit;
    granted?.();
    granted = null;
  });
  const post = (message: ExportMessage, transfer: ArrayBuffer[] = []) =>
    port.postMessage(message, transfer);
  const encoder = new TextEncoder();
  void (async () => {
    try {
      for await (const text of csvChunks(workerData as ExportJob)) {
        while (credit === 0) await new Promise<void>((resolve) => (granted = resolve));
        credit -= 1;
        const bytes = encoder.encode(text);
        post({ chunk: bytes }, [bytes.buffer]);
      }
      post({ done: true });
    } catch (error) {
      post({ error: error instanceof Error ? error.message : String(error) });
    }
    port.close();
  })();
}
