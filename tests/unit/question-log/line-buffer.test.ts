import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  FIRST_CHUNK_BYTES,
  LineBuffer,
} from '../../../electron/service/storage/question-log/line-buffer';

const bytesOf = (buffer: LineBuffer) => Buffer.concat(buffer.chunks()).toString('utf8');

test('lines come back as added, across chunk boundaries and in every script', () => {
  const buffer = new LineBuffer();
  const lines: string[] = [];
  for (let i = 0; i < 5000; i++) {
    const line = JSON.stringify([i, `question ${i}`, '退款要多久', '😀 emoji', 'é'.repeat(i % 50)]);
    lines.push(line);
    buffer.add(line);
  }
  assert.equal(buffer.count, 5000);
  assert.ok(buffer.chunks().length > 1, 'the lines fill more than one chunk');
  assert.deepEqual(buffer.lines(), lines);
  assert.equal(bytesOf(buffer), `${lines.join('\n')}\n`);
});

test('a line longer than a chunk gets a chunk of its own', () => {
  const buffer = new LineBuffer();
  const long = '问'.repeat(200_000);
  buffer.add('a');
  buffer.add(long);
  buffer.add('b');
  assert.deepEqual(buffer.lines(), ['a', long, 'b']);
});

test('an empty buffer has no lines and no bytes', () => {
  const buffer = new LineBuffer();
  assert.deepEqual(buffer.lines(), []);
  assert.equal(bytesOf(buffer), '');
  buffer.add('');
  assert.deepEqual(buffer.lines(), ['']);
  assert.equal(bytesOf(buffer), '\n');
});

test('a robot asked once holds a small chunk, a busy one larger chunks', () => {
  const memory = (buffer: LineBuffer) =>
    buffer.chunks().reduce((sum, chunk) => sum + chunk.buffer.byteLength, 0);
  const quiet = new LineBuffer();
  quiet.add(JSON.stringify([1, 'u', 'API', 'how do I reset my card']));
  assert.equal(memory(quiet), FIRST_CHUNK_BYTES);
  const busy = new LineBuffer();
  const line = 'x'.repeat(150);
  for (let i = 0; i < 8000; i++) busy.add(line);
  assert.equal(busy.lines().length, 8000);
  assert.ok(busy.chunks().length < 12, `${busy.chunks().length} chunks for 8000 lines`);
});
