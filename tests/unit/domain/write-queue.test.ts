import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { WriteQueue } from '../../../electron/service/domain/write-queue';

test('works of one key run one at a time, in arrival order, whatever their durations', async () => {
  const queue = new WriteQueue();
  const log: string[] = [];
  const work = (name: string, ms: number) => async () => {
    log.push(`${name} start`);
    await sleep(ms);
    log.push(`${name} end`);
    return name;
  };
  const results = await Promise.all([
    queue.run('robot', work('a', 30)),
    queue.run('robot', work('b', 1)),
    queue.run('robot', work('c', 10)),
  ]);
  assert.deepEqual(results, ['a', 'b', 'c']);
  assert.deepEqual(log, ['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
});

test('works of different keys do not wait for each other', async () => {
  const queue = new WriteQueue();
  const log: string[] = [];
  let release: () => void = () => {};
  const slow = queue.run('one', () => new Promise<void>((resolve) => (release = resolve)));
  await queue.run('two', async () => log.push('two ran'));
  assert.deepEqual(log, ['two ran'], 'the other key ran while the first was still going');
  release();
  await slow;
});

test('a failed work fails its caller only; the next work of the key still runs', async () => {
  const queue = new WriteQueue();
  const failed = queue.run('robot', async () => {
    throw new Error('disk full');
  });
  const next = queue.run('robot', async () => 'ran');
  await assert.rejects(failed, /disk full/);
  assert.equal(await next, 'ran');
});

test('idle resolves once every queued work has settled, including works queued meanwhile', async () => {
  const queue = new WriteQueue();
  const done: string[] = [];
  void queue.run('a', async () => {
    await sleep(10);
    done.push('a');
    void queue.run('b', async () => {
      await sleep(10);
      done.push('b');
    });
  });
  await queue.idle();
  assert.deepEqual(done, ['a', 'b']);
});
