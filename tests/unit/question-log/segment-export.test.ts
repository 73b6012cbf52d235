/**
 * The embedded log's CSV export on the event loop (decision 202): its bytes are the log's rows,
 * whatever the lines' lengths against its read buffer; a turn hands over at most `TURN_TEXT`
 * characters of rows (what the loop holds at once, and what an ask waits for); a download closed
 * midway closes the segment the export was reading, over real HTTP.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, pipeline } from 'node:stream';
import { test } from 'node:test';
import { silentLogger } from '../../../electron/service/logger';
import { csvRow } from '../../../electron/service/question-log-types';
import { DayFileLog } from '../../../electron/service/store/embedded/question-log/day-file-log';
import { TURN_TEXT } from '../../../electron/service/store/embedded/question-log/segment-export';
import { figuresMaker, loggedQuestion } from '../../helpers/logged-question';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1, 8);
const KEY = '1/default';

/** A log of `perDay` entries a day over `days` days; every 997th question is 40k characters. */
async function filledLog(name: string, days: number, perDay: number) {
  const dir = mkdtempSync(join(tmpdir(), `kb-qlog-${name}-`));
  const folder = join(dir, 'question-log', '1', 'default');
  const log = new DayFileLog({ dataDir: dir, logger: silentLogger, flushMs: 60_000 });
  await log.open(KEY, figuresMaker().replay);
  for (let day = 0; day < days; day++) {
    for (let i = 0; i < perDay; i++) {
      const long = i % 997 === 3 ? ` ${'长'.repeat(40_000)}` : '';
      log.append(
        KEY,
        loggedQuestion(T0 + day * DAY + i * 1000, `问题 "${i}", day ${day}${long}\n`, {
          userId: `user-${i % 13}`,
          ruleId: i % 5 === 0 ? null : `r${i % 7}`,
        }),
        null,
      );
    }
  }
  await log.flush();
  const remove = async () => {
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { log, folder, remove };
}

async function rowsOf(log: DayFileLog, from: number, to: number): Promise<string> {
  let rows = '';
  for await (const slice of log.slices(KEY, from, to))
    for (const entry of slice) rows += `${csvRow(entry)}\r\n`;
  return rows;
}

/**
 * This process's segment files (lines) under `folder` open for reading only: the export's (the
 * store's own handle on the day's segment appends).
 */
function readersUnder(folder: string): string[] {
  const open: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      const flags = /flags:\s+(\d+)/.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1];
      if (
        target.startsWith(folder) &&
        target.endsWith('.jsonl') &&
        flags !== undefined &&
        (parseInt(flags, 8) & 3) === 0
      )
        open.push(target);
    } catch {
      // Closed meanwhile (the listing's own descriptor).
    }
  }
  return open;
}

test("the export's bytes are the log's rows, lines longer than its read buffer included", async () => {
  const { log, remove } = await filledLog('export-bytes', 3, 2_000);
  try {
    const from = T0 + 100_000;
    const to = T0 + 2 * DAY + 300_000;
    for (const [start, end] of [
      [0, Number.MAX_SAFE_INTEGER],
      [from, to],
    ] as const) {
      const expected = await rowsOf(log, start, end);
      assert.ok(expected.length > 500_000, `${expected.length} characters`);
      const chunks: Uint8Array[] = [];
      for await (const chunk of log.csvRows(KEY, start, end)) chunks.push(chunk);
      assert.equal(Buffer.concat(chunks).toString('utf8'), expected, `[${start}, ${end})`);
    }
  } finally {
    await remove();
  }
});

test('a turn of the export hands over at most TURN_TEXT characters of rows', async () => {
  // Without long lines: a chunk is then under TURN_TEXT plus one row of ~150 characters. The
  // worker it replaces handed over 256k characters a chunk (decision 202).
  const { log, remove } = await filledLog('export-turns', 2, 6_000);
  try {
    const longestRow = 400;
    let chunks = 0;
    let bytes = 0;
    for await (const chunk of log.csvRows(KEY, 0, Number.MAX_SAFE_INTEGER)) {
      const text = Buffer.from(chunk).toString('utf8');
      if (!text.includes('长'.repeat(100)))
        assert.ok(text.length <= TURN_TEXT + longestRow, `a chunk of ${text.length} characters`);
      chunks += 1;
      bytes += chunk.length;
    }
    assert.ok(bytes > 1_500_000, `${bytes} bytes`);
    assert.ok(chunks >= bytes / (4 * TURN_TEXT), `${chunks} chunks`);
  } finally {
    await remove();
  }
});

test('a download closed midway closes the segment the export was reading', async () => {
  const { log, folder, remove } = await filledLog('export-abort', 2, 6_000);
  const server = createServer((_request, response) => {
    // As the route's reply streams it: the rows' stream destroyed when the response closes.
    pipeline(Readable.from(log.csvRows(KEY, 0, Number.MAX_SAFE_INTEGER)), response, () => {});
  });
  try {
    assert.deepEqual(readersUnder(folder), [], 'no segment read before the download');
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const reading = await new Promise<number>((resolve, reject) => {
      const request = get(`http://127.0.0.1:${port}/`, (response) => {
        response.once('data', () => {
          const open = readersUnder(folder).length;
          request.destroy();
          resolve(open);
        });
      });
      request.on('error', (error) => {
        if (!request.destroyed) reject(error);
      });
    });
    // The export's, and at times the store's own (a closed day's index made from its lines).
    assert.ok(reading >= 1, 'a segment read while the download runs');
    // The close reaches the server on its next turns; a generous bound for a loaded machine.
    for (let waited = 0; readersUnder(folder).length > 0 && waited < 60_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(readersUnder(folder), [], 'the segment closed once the client left');
  } finally {
    server.close();
    await remove();
  }
});
