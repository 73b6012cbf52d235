import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import {
  INDEX_FILE,
  IndexFileDamagedError,
  discardIndexFile,
  putBackIndexFile,
  readIndexFile,
  setAsideIndexFile,
  writeIndexFile,
} from '../../../electron/service/store/embedded/index-file';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'index-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const bytesOf = (length: number, seed: number) =>
  Uint8Array.from({ length }, (_, i) => (i * 31 + seed) & 0xff);

function writeThree(): Uint8Array[] {
  // Odd lengths: each robot's bytes must still start 8-byte aligned.
  const blobs = [bytesOf(13, 1), bytesOf(0, 2), bytesOf(1001, 3)];
  let saves = 0;
  writeIndexFile(
    dir,
    42,
    blobs.map((bytes, i) => ({
      tenantId: 1,
      robotId: `r${i}`,
      rules: i * 10,
      maxSeq: i * 100,
      write: (sink: (chunk: Uint8Array) => void) => {
        saves += 1;
        // In pieces, as the engine streams them: the file must hold them back to back.
        sink(bytes.subarray(0, bytes.length >> 1));
        // An empty piece (an empty array of the index) must not upset the checksum.
        sink(new Uint8Array(new ArrayBuffer(0)));
        sink(bytes.subarray(bytes.length >> 1));
      },
    })),
  );
  assert.equal(saves, 3, 'each robot saved once');
  return blobs;
}

test('robots written one by one are read back whole and 8-byte aligned', async () => {
  const blobs = writeThree();
  const file = await readIndexFile(dir);
  assert.equal(file?.seq, 42);
  assert.deepEqual(
    file?.robots.map((r) => [r.robotId, r.rules, r.maxSeq]),
    [
      ['r0', 0, 0],
      ['r1', 10, 100],
      ['r2', 20, 200],
    ],
  );
  file?.robots.forEach((robot, i) => {
    assert.deepEqual(robot.bytes, blobs[i]);
    assert.equal(robot.bytes.byteOffset % 8, 0);
  });
  assert.deepEqual(readdirSync(dir), [INDEX_FILE], 'no temporary file is left');
});

test('a file larger than a memory budget is not read (a node under it opens a budget of it)', async () => {
  writeThree();
  const size = readFileSync(join(dir, INDEX_FILE)).length;
  await assert.rejects(readIndexFile(dir, size - 1), /more than the memory budget/);
  assert.equal((await readIndexFile(dir, size))?.robots.length, 3);
});

test('no file reads as null', async () => {
  assert.equal(await readIndexFile(dir), null);
});

test('any damage is detected: a flipped byte anywhere, a cut, another file', async () => {
  writeThree();
  const path = join(dir, INDEX_FILE);
  const good = readFileSync(path);
  for (let at = 0; at < good.length; at += 97) {
    const bad = Buffer.from(good);
    bad[at] = (bad[at] ?? 0) ^ 0x01;
    writeFileSync(path, bad);
    await assert.rejects(readIndexFile(dir), IndexFileDamagedError, `byte ${at}`);
  }
  for (const length of [0, 5, 20, good.length - 1]) {
    writeFileSync(path, good.subarray(0, length));
    await assert.rejects(readIndexFile(dir), IndexFileDamagedError, `cut at ${length}`);
  }
  writeFileSync(path, 'SQLite format 3\0 and so on, not an index at all');
  await assert.rejects(readIndexFile(dir), IndexFileDamagedError);
});

test('a save that fails leaves the previous file as it was', async () => {
  writeThree();
  const before = readFileSync(join(dir, INDEX_FILE));
  assert.throws(() =>
    writeIndexFile(dir, 43, [
      {
        tenantId: 1,
        robotId: 'x',
        rules: 1,
        maxSeq: 1,
        write: () => {
          throw new Error('engine failed');
        },
      },
    ]),
  );
  assert.deepEqual(readFileSync(join(dir, INDEX_FILE)), before);
  assert.deepEqual(readdirSync(dir), [INDEX_FILE]);
});

test('a file set aside is gone under its name at once, and can be put back or discarded', async () => {
  writeThree();
  const before = readFileSync(join(dir, INDEX_FILE));
  const aside = setAsideIndexFile(dir);
  assert.ok(aside && existsSync(aside));
  assert.match(aside, /\.tmp-\d+$/, 'a name the next open cleans up if this process dies');
  assert.equal(await readIndexFile(dir), null);
  putBackIndexFile(dir, aside);
  assert.deepEqual(readFileSync(join(dir, INDEX_FILE)), before);
  const again = setAsideIndexFile(dir) as string;
  discardIndexFile(again);
  for (let i = 0; i < 100 && existsSync(again); i++) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(readdirSync(dir), []);
  assert.equal(setAsideIndexFile(dir), null, 'nothing to set aside');
});
