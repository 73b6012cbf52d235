/**
 * One saved index per robot (files/robot-index-files.ts, domain/saved-robot-indexes.ts): a file
 * written in slices opens to an index answering as a fresh build of the same rules does; a
 * stale, truncated or damaged file is never used (the robot is built from its rules), and a
 * write to the robot makes its file stale; across a restart only a clean stop's manifest vouches
 * for the files: all of them at the same store position, else those whose robot's change count
 * in the store is still the one its index was read at.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SavedRobotIndexes } from '../../../electron/service/domain/saved-robot-indexes';
import { RobotIndexFileStore } from '../../../electron/service/files/robot-index-files';
import { silentLogger } from '../../../electron/service/logger';
import {
  DEFAULT_MATCH_SETTINGS,
  createRobotIndex,
  loadRobotIndex,
  saveRobotIndex,
  writeRobotIndexInSlices,
} from '../../../electron/service/matching/index';
import type { RobotIndex } from '../../../electron/service/matching/types';
import { nextTurn } from '../../../electron/service/time-slices';
import { matchableRule } from '../../helpers/matchable-rule';
import { makeDataDir } from '../../helpers/service';

const NOW = Date.UTC(2026, 10, 27);
const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function built(): RobotIndex {
  const index = createRobotIndex();
  const topics = ['退款', '密码', 'refund', 'password', 'card', '營業時間', 'top-up'];
  for (let i = 0; i < 300; i += 1) {
    const topic = topics[i % topics.length] ?? '';
    index.upsert(
      matchableRule(`r${i}`, [`怎么办理${topic} ${i}`, `How do I fix my ${topic} number ${i}?`], {
        ruleName: `rule ${i}`,
        ...(i % 9 === 0 ? { active: false } : {}),
      }),
    );
  }
  for (let i = 0; i < 300; i += 13) index.remove(`r${i}`);
  return index;
}

const QUESTIONS = [
  '怎么办理退款 7',
  'how do I fix my password',
  'card number 40',
  '營業時間',
  'hello',
];
const answers = (index: RobotIndex) =>
  QUESTIONS.map((question) => index.match(question, NOW, DEFAULT_MATCH_SETTINGS));

const codec = {
  write: (index: RobotIndex, sink: (chunk: Uint8Array) => void) =>
    writeRobotIndexInSlices(index, sink, nextTurn),
  load: loadRobotIndex,
};

function fixture() {
  const dir = join(makeDataDir('index-files'), 'indexes');
  dirs.push(dir);
  const files = new RobotIndexFileStore(dir);
  return { dir, files, saved: new SavedRobotIndexes(files, codec, silentLogger) };
}

/** A store that knows no change count: files hold only at their stop's position. */
const noCounts = () => Promise.resolve(null);

const kbriFiles = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.kbri'));

test('bytes written in slices are the bytes written in one go', async () => {
  const index = built();
  const chunks: Uint8Array[] = [];
  const length = await writeRobotIndexInSlices(
    index,
    (chunk) => chunks.push(chunk.slice()),
    nextTurn,
  );
  assert.deepEqual(Buffer.concat(chunks), Buffer.from(saveRobotIndex(index)));
  assert.equal(length, Buffer.concat(chunks).length);
});

test('a saved robot index opens to one answering as a fresh build of the same rules', async () => {
  const { saved } = fixture();
  const index = built();
  saved.save('1/a', index);
  await saved.idle();
  assert.ok(saved.has('1/a'));
  const opened = await saved.open('1/a');
  assert.ok(opened);
  assert.equal(opened.size, index.size);
  assert.deepEqual(answers(opened), answers(built()));
  // Writes after opening behave as on a fresh build.
  const fresh = built();
  for (const target of [opened, fresh]) {
    target.upsert(matchableRule('new', ['where can I park my bike']));
    target.remove('r7');
  }
  assert.deepEqual(answers(opened), answers(fresh));
  assert.deepEqual(
    opened.match('where can I park', NOW, DEFAULT_MATCH_SETTINGS),
    fresh.match('where can I park', NOW, DEFAULT_MATCH_SETTINGS),
  );
});

test('a write to the robot makes its file stale, also during the save', async () => {
  const { dir, saved } = fixture();
  saved.save('1/a', built());
  await saved.idle();
  saved.changed('1/a');
  assert.equal(await saved.open('1/a'), null);
  await saved.idle();
  await nextTurn();
  // Removed in the background.
  while (kbriFiles(dir).length > 0) await nextTurn();
  // A write while the save is under way: the save is not vouched for.
  saved.save('1/a', built());
  saved.changed('1/a');
  await saved.idle();
  assert.equal(saved.has('1/a'), false);
  assert.equal(await saved.open('1/a'), null);
});

test('a file saved before the self-test calibrated the index is saved again once it has', async () => {
  const { dir, files, saved } = fixture();
  const index = built();
  assert.equal(index.calibration?.current, false);
  saved.save('1/a', index);
  await saved.idle();
  const [name] = kbriFiles(dir);
  assert.ok(name);
  const before = readFileSync(join(dir, name));
  // Nothing newer to keep: the file stays as it is.
  saved.save('1/a', index);
  await saved.idle();
  assert.deepEqual(readFileSync(join(dir, name)), before);
  const uncalibrated = await saved.open('1/a');
  assert.equal(uncalibrated?.calibration?.current, false);
  uncalibrated?.close?.();
  index.selfCalibrate?.(NOW);
  index.close?.();
  saved.save('1/a', index);
  await saved.idle();
  const opened = await saved.open('1/a');
  assert.equal(opened?.calibration?.current, true);
  assert.equal(opened?.calibration?.pending, false);
  assert.deepEqual(answers(opened as RobotIndex), answers(index));
  // Under the same token: a read that raced the rewrite finds either file whole and exact.
  const header = (bytes: Buffer) => bytes.subarray(24, 24 + bytes.readUInt32LE(8)).toString();
  assert.equal(header(readFileSync(join(dir, name))), header(before));
  assert.equal(
    (await files.read('1/a', (JSON.parse(header(before)) as { token: string }).token)).ok,
    true,
  );
});

test('a truncated, damaged or other-robot file is not used', async () => {
  const { dir, files, saved } = fixture();
  for (const key of ['1/a', '1/b', '1/c', '1/d']) saved.save(key, built());
  await saved.idle();
  const [a, b, c] = ['1/a', '1/b', '1/c'].map((key) =>
    kbriFiles(dir).find((name) => readFileSync(join(dir, name)).includes(Buffer.from(key))),
  );
  assert.ok(a && b && c);
  const truncated = readFileSync(join(dir, a));
  writeFileSync(join(dir, a), truncated.subarray(0, truncated.length - 1000));
  const damaged = readFileSync(join(dir, b));
  damaged[damaged.length - 500] = (damaged[damaged.length - 500] ?? 0) ^ 1;
  writeFileSync(join(dir, b), damaged);
  const header = readFileSync(join(dir, c));
  header[30] = (header[30] ?? 0) ^ 1;
  writeFileSync(join(dir, c), header);
  assert.equal(await saved.open('1/a'), null);
  assert.equal(await saved.open('1/b'), null);
  assert.equal(await saved.open('1/c'), null);
  // Forgotten once found unusable: the robot is built, then saved again.
  assert.equal(saved.has('1/a'), false);
  assert.deepEqual(await files.read('1/d', 'another token'), { ok: false, reason: 'stale' });
  assert.ok(await saved.open('1/d'));
});

test('across a restart only the manifest of a clean stop at the same position vouches', async () => {
  const { dir, saved } = fixture();
  const index = built();
  await saved.stop([{ key: '1/a', index }], ['1/a'], () => 42);
  const next = new SavedRobotIndexes(new RobotIndexFileStore(dir), codec, silentLogger);
  assert.deepEqual(await next.adopt(42, noCounts), ['1/a']);
  assert.deepEqual(answers((await next.open('1/a')) as RobotIndex), answers(index));
  // The manifest was taken: a crash now leaves nothing that vouches for the files.
  const crashed = new SavedRobotIndexes(new RobotIndexFileStore(dir), codec, silentLogger);
  assert.deepEqual(await crashed.adopt(42, noCounts), []);
  assert.equal(await crashed.open('1/a'), null);
  // A clean stop at another position than the store's at the next start: every file goes.
  await next.stop([], ['1/a'], () => 42);
  const moved = new SavedRobotIndexes(new RobotIndexFileStore(dir), codec, silentLogger);
  assert.deepEqual(await moved.adopt(43, noCounts), []);
  assert.deepEqual(kbriFiles(dir), []);
});

test("at another store position, a file holds while its robot's change count is the one it was read at", async () => {
  const { dir, saved } = fixture();
  const counts = new Map([
    ['1/a', 5],
    ['1/b', 7],
    ['1/c', 9],
  ]);
  const index = built();
  for (const [key, count] of counts) saved.counted(key, count);
  // Written to after its count was read (this node's write): the count its index is of is not known.
  saved.changed('1/c');
  const keys = [...counts.keys()];
  await saved.stop(
    keys.map((key) => ({ key, index })),
    keys,
    () => 42,
  );
  assert.equal(kbriFiles(dir).length, 3);
  // Another node wrote to robot 1/b while this one was stopped: its count moved, and the store.
  counts.set('1/b', 8);
  const changeCount = (key: string) => Promise.resolve(counts.get(key) ?? null);
  const next = new SavedRobotIndexes(new RobotIndexFileStore(dir), codec, silentLogger);
  assert.deepEqual(await next.adopt(43, changeCount), ['1/a']);
  assert.deepEqual(answers((await next.open('1/a')) as RobotIndex), answers(index));
  assert.equal(await next.open('1/b'), null);
  assert.equal(await next.open('1/c'), null);
  assert.equal(kbriFiles(dir).length, 1, 'the files refused are removed');
  // The count goes on with the file: still held at the next start, until its robot is written.
  await next.stop([], ['1/a'], () => 43);
  const third = new SavedRobotIndexes(new RobotIndexFileStore(dir), codec, silentLogger);
  assert.deepEqual(await third.adopt(44, changeCount), ['1/a']);
  await third.stop([], ['1/a'], () => 44);
  counts.set('1/a', 6);
  const fourth = new SavedRobotIndexes(new RobotIndexFileStore(dir), codec, silentLogger);
  assert.deepEqual(await fourth.adopt(45, changeCount), []);
  assert.deepEqual(kbriFiles(dir), []);
});
