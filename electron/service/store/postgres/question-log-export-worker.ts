/**
 * The team server's export in a worker thread (decision 193): reads the log's slices on a
 * connection of its own, decodes them and makes their CSV rows with its own heap, and posts the
 * rows as bytes (their buffer transferred, not copied) while the main thread has asked for more,
 * as the embedded store's export worker does (segment-export-worker.ts). It starts reading once
 * told where (`start`: the entry after which the main thread's head ended); each `credit`
 * allows that many more chunks. Its one connection ends before it says it is done or failed;
 * a worker terminated meanwhile (the download closed) takes its socket with it, and the
 * server ends the session.
 * @module
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadDriver } from './connection';
import type { ExportMessage, ExportWorkerJob, ToExportWorker } from './question-log-export';
import { EXPORT_CHUNK_TEXT } from './question-log-export';
import { RuleNumbers } from './question-log-row';
import { csvText, readSlice } from './question-log-slice';

/** How long a goodbye to the server may take before the worker stops regardless (ms). */
const END_MS = 2000;

const port = parentPort;
if (port) {
  const job = workerData as ExportWorkerJob;
  let credit = 0;
  let start: number | null = null;
  let wake: (() => void) | null = null;
  port.on('message', (message: ToExportWorker) => {
    if (message.credit !== undefined) credit += message.credit;
    if (message.start !== undefined) start = message.start;
    wake?.();
    wake = null;
  });
  const until = async (ready: () => boolean) => {
    while (!ready()) await new Promise<void>((resolve) => (wake = resolve));
  };
  const encoder = new TextEncoder();
  const send = async (text: string) => {
    await until(() => credit > 0);
    credit -= 1;
    const bytes = encoder.encode(text);
    port.postMessage({ chunk: bytes } satisfies ExportMessage, [bytes.buffer]);
  };
  void (async () => {
    const client = new (loadDriver().Client)(job.config);
    // A connection that dies between statements says so here too; the next statement fails.
    client.on('error', () => undefined);
    let last: ExportMessage = { done: true };
    try {
      await client.connect();
      await until(() => start !== null);
      const rules = new RuleNumbers(client);
      let text = '';
      for (let after = start ?? 0; ;) {
        const slice = await readSlice(client, rules, {
          logId: job.logId,
          after,
          from: job.from,
          to: job.to,
          limit: job.sliceRows,
        });
        text += csvText(slice.entries);
        if (text.length >= EXPORT_CHUNK_TEXT) {
          await send(text);
          text = '';
        }
        if (slice.read < job.sliceRows) break;
        after = slice.last;
      }
      if (text.length > 0) await send(text);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      last = {
        error: error instanceof Error ? error.message : String(error),
        ...(typeof code === 'string' ? { code } : {}),
      };
    }
    // The connection is given back before the main thread hears the end.
    await Promise.race([
      client.end().catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, END_MS).unref()),
    ]);
    port.postMessage(last);
    port.close();
  })();
}
