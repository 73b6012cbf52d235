/**
 * The embedded store's vector cache file (store/embedded/vector-file.ts): vectors come back as
 * put, from a new instance too, and a torn last record (a crash during an append) is cut off.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { VECTOR_FILE, VectorFile } from '../../../electron/service/store/embedded/vector-file';

const v = (values: number[], scale: number) => ({ values: Int8Array.from(values), scale });

test('vectors survive a new instance; a torn tail is cut off and appended after', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kb-vectors-'));
  try {
    const file = new VectorFile(dir);
    await file.put(
      'm',
      new Map([
        ['一', v([1, 2, 3], 0.5)],
        ['two', v([-1, -2, -3], 0.25)],
      ]),
    );
    const size = statSync(join(dir, VECTOR_FILE)).size;
    appendFileSync(join(dir, VECTOR_FILE), Buffer.from([200, 0, 0, 0, 1, 2]));
    const reopened = new VectorFile(dir);
    const found = await reopened.get('m', ['一', 'two', 'three']);
    assert.deepEqual(found.get('一'), v([1, 2, 3], 0.5));
    assert.deepEqual(found.get('two'), v([-1, -2, -3], 0.25));
    assert.equal(found.size, 2);
    assert.equal(statSync(join(dir, VECTOR_FILE)).size, size, 'the torn record is cut off');
    await reopened.put('m', new Map([['three', v([7], 1)]]));
    assert.deepEqual((await new VectorFile(dir).get('m', ['three'])).get('three'), v([7], 1));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
