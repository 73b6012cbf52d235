/** The forward lists' varints read back every id written, at every byte-length boundary. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MAX_TERM_BYTES,
  TermCursor,
  writeTerm,
} from '../../../electron/service/matching/term-bytes';

test('term ids of one to five bytes come back in order', () => {
  const ids = [0, 1, 127, 128, 300, 16_383, 16_384, 2_097_151, 2_097_152, 2 ** 31 - 1, 2 ** 32, 5];
  const bytes = new Uint8Array(ids.length * MAX_TERM_BYTES);
  let end = 0;
  const ends: number[] = [];
  for (const id of ids) {
    end = writeTerm(bytes, end, id);
    ends.push(end);
  }
  // One byte below 128, one more per seven bits.
  assert.deepEqual(
    ends.map((at, i) => at - (ends[i - 1] ?? 0)),
    [1, 1, 1, 2, 2, 2, 3, 3, 4, 5, 5, 1],
  );
  const cursor = new TermCursor();
  cursor.reset(bytes, 0);
  const read: number[] = [];
  while (cursor.at < end) read.push(cursor.next());
  assert.deepEqual(read, ids);
});
