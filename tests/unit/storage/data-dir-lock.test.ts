/**
 * The data-directory lock never takes a dead owner for a live one (issue 32): a zombie (killed,
 * not yet reaped: `kill(pid, 0)` still finds it) and a process that got the owner's pid later are
 * gone; a live owner, and a lock written before start times were recorded naming a live pid,
 * are respected. Linux only (/proc).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import {
  DataDirLockedError,
  LOCK_FILE,
  acquireDataDirLock,
  procStat,
} from '../../../electron/service/files/data-dir-lock';

const linux = existsSync('/proc/self/stat');

describe('the data-directory lock and dead owners', { skip: !linux && 'needs /proc' }, () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lock-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A shell that leaves its child a zombie: `sleep 0` exits and `sleep 60` never reaps it. */
  let parent: ChildProcess;
  let zombie: number;
  before(async () => {
    parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 60'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    zombie = await new Promise<number>((resolve) =>
      parent.stdout?.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))),
    );
    // Wait (without a bound on time that matters) for the child to have exited unreaped.
    for (let i = 0; i < 500 && procStat(zombie)?.state !== 'Z'; i++) await sleep(10);
    assert.equal(procStat(zombie)?.state, 'Z', 'the child is a zombie');
  });
  after(() => parent.kill('SIGKILL'));

  const writeLock = (owner: object) =>
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ host: hostname(), ...owner }));

  test('a zombie owner is gone: its lock is taken over', () => {
    process.kill(zombie, 0); // what the old check asked: the pid still answers
    writeLock({ pid: zombie });
    const lock = acquireDataDirLock(dir);
    assert.equal(lock.tookOverStaleLock, true);
    lock.release();
  });

  test('a live process that got the pid later is not the owner', () => {
    const pid = parent.pid ?? 0;
    const started = procStat(pid)?.started ?? 0;
    writeLock({ pid, started: started - 1 });
    const lock = acquireDataDirLock(dir);
    assert.equal(lock.tookOverStaleLock, true);
    lock.release();
  });

  test('a lock from another boot is stale', () => {
    const pid = parent.pid ?? 0;
    writeLock({ pid, started: procStat(pid)?.started, boot: 'another-boot' });
    acquireDataDirLock(dir).release();
  });

  test('a live owner is respected, with its start time or without (an older lock)', () => {
    const pid = parent.pid ?? 0;
    for (const owner of [{ pid, started: procStat(pid)?.started }, { pid }]) {
      writeLock(owner);
      assert.throws(() => acquireDataDirLock(dir), DataDirLockedError);
    }
  });

  test('the lock names its owner with its start time and boot', () => {
    const lock = acquireDataDirLock(dir);
    const owner = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as {
      pid: number;
      started: number;
      boot: string;
    };
    assert.equal(owner.pid, process.pid);
    assert.equal(owner.started, procStat(process.pid)?.started);
    assert.equal(owner.boot, readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
    assert.throws(() => acquireDataDirLock(dir), DataDirLockedError);
    lock.release();
    assert.ok(!existsSync(join(dir, LOCK_FILE)));
  });
});
