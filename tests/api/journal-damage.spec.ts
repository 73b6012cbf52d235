/**
 * A damaged journal, end to end: a real service writes six acknowledged batches (six journal
 * records) and is killed; then one byte is flipped in one record, in a journal of one segment
 * (the first three records) or of two (three records each). Only a damaged last record of the
 * last segment is a torn write: it is cut and the service starts. Any other damage refuses to
 * start, naming the file and byte offset, and leaves every file byte for byte as it was (a
 * second start refuses the same way). `npm run repair` (dist/repair.js) then keeps a copy of
 * every file it changes, reports the lost batch in words, and the service starts with every
 * other batch.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { OpenApiClient } from '../../electron/client/openapi-client';
import {
  readSegment,
  segmentName,
  setAsideName,
} from '../../electron/service/store/embedded/journal';
import type { RecordAt } from '../../electron/service/store/embedded/journal';
import { runServiceExpectingFailure, spawnService } from '../helpers/child-service';
import { TEST_CREDENTIALS, makeDataDir, ruleInput, tenantRequest } from '../helpers/service';
import { EMBEDDED_FILES_ONLY } from '../helpers/test-store';

const REPAIR = join(import.meta.dirname, '..', '..', 'dist', 'repair.js');
const BATCHES = 6;
const RULES = 20;

const clientFor = (url: string) => new OpenApiClient({ baseUrl: url, ...TEST_CREDENTIALS });

/** Every file below `dir` and its bytes. */
function contents(dir: string): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    if (statSync(path).isFile()) out[name] = readFileSync(path);
  }
  return out;
}

function repair(dataDir: string) {
  const run = spawnSync(process.execPath, [REPAIR, '--data', dataDir], { encoding: 'utf8' });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('a damaged journal', { skip: EMBEDDED_FILES_ONLY }, () => {
  const fixture = makeDataDir('journal-fixture');
  const dirs: string[] = [];
  let tenantId = 0;
  let secret = '';
  /** The six records as the service wrote them. */
  let records: RecordAt[] = [];
  let journal: Buffer = Buffer.alloc(0);
  let firstSeq = 0;

  before(async () => {
    // Registration, then a clean stop: the snapshot holds it and the journal starts empty.
    let service = await spawnService(fixture);
    ({ tenantId } = await clientFor(service.url).registerTenant(tenantRequest()));
    secret = (await clientFor(service.url).listRobots(tenantId))[0]?.robotSecret ?? '';
    service.child.kill('SIGTERM');
    assert.equal(await service.exited, 0);
    service = await spawnService(fixture);
    const robot = clientFor(service.url).robot(tenantId, 'default', secret);
    for (let b = 1; b <= BATCHES; b++) {
      const rules = Array.from({ length: RULES }, (_, i) =>
        ruleInput(`b${b}#${i}`, [`batch ${b} question ${i}`], `answer ${b}.${i}`),
      );
      assert.equal((await robot.importRules(rules)).succeed.length, RULES);
    }
    service.child.kill('SIGKILL'); // no snapshot: the six batches are in the journal only
    await service.exited;
    const [segment] = readdirSync(fixture).filter((n) => n.startsWith('journal-'));
    assert.ok(segment, 'a journal segment');
    journal = readFileSync(join(fixture, segment));
    records = readSegment(journal).filter((e): e is RecordAt => 'record' in e);
    assert.equal(records.length, BATCHES, 'one record per batch');
    firstSeq = records[0]?.record.seq ?? 0;
    rmSync(join(fixture, segment));
  });
  after(() => {
    for (const dir of [fixture, ...dirs]) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A data directory with the journal laid out in segments of `split` records (the rest of the
   * fixture as it was, stale lock included), and one byte flipped in record `damaged` (0-based).
   */
  function layout(segmentSizes: number[], damaged: number | null, cut = false) {
    const dir = makeDataDir('journal-damage');
    dirs.push(dir);
    cpSync(fixture, dir, { recursive: true });
    let index = 0;
    let flipped = { file: '', offset: 0 };
    for (const size of segmentSizes) {
      const inSegment = records.slice(index, index + size);
      const base = inSegment[0]?.offset ?? 0;
      const bytes = Buffer.from(journal.subarray(base, inSegment.at(-1)?.end ?? base));
      const file = segmentName(inSegment[0]?.record.seq ?? 0);
      if (damaged !== null && damaged >= index && damaged < index + size) {
        const target = records[damaged] as RecordAt;
        const at = target.offset - base + Math.floor((target.end - target.offset) / 2);
        bytes[at] = (bytes[at] ?? 0) ^ 0x01;
        flipped = { file, offset: target.offset - base };
      }
      writeFileSync(join(dir, file), bytes);
      if (cut) {
        const last = inSegment.at(-1) as RecordAt;
        truncateSync(join(dir, file), last.end - base - 7);
      }
      index += size;
    }
    return { dir, flipped };
  }

  async function batchesIn(dir: string, log?: (output: string) => void): Promise<Set<number>> {
    const service = await spawnService(dir);
    log?.(service.output());
    try {
      const robot = clientFor(service.url).robot(tenantId, 'default', secret);
      const { list } = await robot.listRules(0, 1000);
      const batches = new Set(list.map((rule) => Number(/^b(\d+)#/.exec(rule.ruleName)?.[1])));
      for (const b of batches)
        assert.equal(
          list.filter((r) => r.ruleName.startsWith(`b${b}#`)).length,
          RULES,
          `batch ${b} is whole`,
        );
      return batches;
    } finally {
      service.child.kill('SIGTERM');
      assert.equal(await service.exited, 0);
    }
  }

  const cases: { name: string; segments: number[]; damaged: number }[] = [
    { name: 'first record, one segment', segments: [3], damaged: 0 },
    { name: 'middle record, one segment', segments: [3], damaged: 1 },
    { name: 'first record of a segment before the last', segments: [3, 3], damaged: 0 },
    { name: 'middle record of a segment before the last', segments: [3, 3], damaged: 1 },
    { name: 'last record of a segment before the last', segments: [3, 3], damaged: 2 },
    { name: 'first record of the last segment', segments: [3, 3], damaged: 3 },
  ];
  for (const { name, segments, damaged } of cases) {
    test(`${name}: refused with file and offset, nothing changed; repair reports the loss and keeps the rest`, async () => {
      const { dir, flipped } = layout(segments, damaged);
      const before = contents(dir);
      for (const attempt of ['first', 'second']) {
        const refused = await runServiceExpectingFailure(dir);
        assert.equal(refused.code, 1, `${attempt} start: ${refused.output}`);
        assert.match(
          refused.output,
          new RegExp(`${join(dir, flipped.file)} is damaged at byte ${flipped.offset}\\b`),
        );
        assert.match(refused.output, /npm run repair -- --data/);
        assert.doesNotMatch(refused.output, /\n\s+at /, 'no stack trace');
        assert.deepEqual(contents(dir), before, `${attempt} start changed files`);
      }

      const repaired = repair(dir);
      assert.equal(repaired.code, 0, repaired.output);
      const lostSeq = firstSeq + damaged;
      assert.match(repaired.output, new RegExp(`LOST: 1 acknowledged change`));
      assert.match(
        repaired.output,
        new RegExp(`seq ${lostSeq} \\(${flipped.file}, bytes ${flipped.offset}–`),
      );
      assert.match(
        repaired.output,
        new RegExp(
          `batch of ${RULES} rules into tenant ${tenantId} robot default \\("b${damaged + 1}#0"`,
        ),
      );
      const backup = /Copies of them as they were, and this report: (\S+)/.exec(
        repaired.output,
      )?.[1];
      assert.ok(backup && existsSync(backup), `backup folder: ${repaired.output}`);
      for (const [file, bytes] of Object.entries(before)) {
        if (file === 'kb.sqlite' || file.startsWith('journal-'))
          assert.deepEqual(readFileSync(join(backup, file)), bytes, `copy of ${file}`);
      }
      assert.ok(existsSync(join(backup, 'REPORT.txt')));

      const expected = new Set(
        Array.from({ length: segments.reduce((a, b) => a + b, 0) }, (_, i) => i + 1).filter(
          (b) => b !== damaged + 1,
        ),
      );
      assert.deepEqual(await batchesIn(dir), expected);
    });
  }

  test('a damaged last record of the last segment is cut so the service starts, its bytes set aside and reported', async () => {
    for (const segments of [[3], [3, 3]]) {
      const last = segments.reduce((a, b) => a + b, 0) - 1;
      const { dir, flipped } = layout(segments, last);
      const damagedBytes = readFileSync(join(dir, flipped.file)).subarray(flipped.offset);
      const kept = Array.from({ length: last }, (_, i) => i + 1);
      let output = '';
      assert.deepEqual(
        await batchesIn(dir, (o) => (output = o)),
        new Set(kept),
        `${segments.length} segment(s)`,
      );
      // Bit rot, not a tear: the record may have been acknowledged. Before, it was cut with no
      // copy kept.
      const aside = join(dir, setAsideName(flipped.file, flipped.offset));
      assert.match(
        output,
        new RegExp(
          `cut \\d+ byte\\(s\\) at the end of ${join(dir, flipped.file)} \\(from byte ${flipped.offset}\\): the last record is damaged .*set aside in ${aside}`,
        ),
      );
      assert.deepEqual(readFileSync(aside), damagedBytes);
      const repaired = repair(dir);
      assert.equal(repaired.code, 0, repaired.output);
      assert.match(repaired.output, /SET ASIDE/);
      assert.match(repaired.output, new RegExp(`${basename(aside)}: .*batch`, 'i'));
    }
    // A record cut short (the usual tear): cut, nothing set aside.
    const { dir } = layout([3], null, true);
    let output = '';
    assert.deepEqual(await batchesIn(dir, (o) => (output = o)), new Set([1, 2]));
    assert.match(output, /a write interrupted by a crash, never acknowledged/);
    assert.deepEqual(
      readdirSync(dir).filter((name) => name.includes('.damaged-at-')),
      [],
    );
  });
});
