/**
 * `npm run serve` started as a user (or a supervisor, or `cmd & … kill $!`) starts it: a SIGTERM
 * to npm's pid stops the service. npm runs the script through `sh -c`, which does not pass the
 * signal on; before build/serve.mjs the service went on running under init, answering and
 * holding the data directory. (If dist/ is older than the sources, the script builds first.)
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { LOCK_FILE } from '../../electron/service/files/data-dir-lock';
import { makeDataDir, startTestService, TEST_ENV } from '../helpers/service';
import { storeEnv } from '../helpers/test-store';

const ROOT = join(import.meta.dirname, '..', '..');

/** True while something accepts connections on the port. */
function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Waits until `done()` holds, or throws once the test was given up (its timeout). */
async function until(done: () => boolean | Promise<boolean>, signal: AbortSignal): Promise<void> {
  while (!(await done())) {
    signal.throwIfAborted();
    await sleep(100);
  }
}

/** True while any process of the group runs. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm run serve', { skip: process.platform === 'win32' ? 'POSIX signals' : false }, () => {
  // Generous: a stale dist/ is built first. Without the fix the service never stops, and the
  // test ends here instead of waiting forever.
  const timeout = 5 * 60_000;
  test(
    'SIGTERM to the pid of npm stops the service: port closed, data directory free',
    { timeout },
    async (t) => {
      const dataDir = makeDataDir('serve');
      // Its own process group, so that whatever the test leaves can be cleaned up at the end.
      const npm = spawn('npm', ['run', 'serve', '--', '--data', dataDir, '--port', '0'], {
        cwd: ROOT,
        env: { ...process.env, ...TEST_ENV, ...(await storeEnv(dataDir)) },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      const pgid = npm.pid ?? 0;
      try {
        let output = '';
        const port = await new Promise<number>((resolve, reject) => {
          const onData = (chunk: Buffer) => {
            output += chunk.toString();
            const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
            if (match?.[1]) resolve(Number(match[1]));
          };
          npm.stdout.on('data', onData);
          npm.stderr.on('data', onData);
          npm.once('exit', (code) =>
            reject(new Error(`npm run serve exited (${code}):\n${output}`)),
          );
        });
        assert.ok(await accepting(port));
        assert.ok(existsSync(join(dataDir, LOCK_FILE)));

        const npmExited = new Promise((resolve) => npm.once('exit', resolve));
        // Every writer of its output (npm, the shell, the service) is gone once it ends.
        const outputEnded = new Promise((resolve) => npm.stdout.once('end', resolve));
        process.kill(pgid, 'SIGTERM'); // npm's pid only, as `kill $!` does
        await npmExited;
        // The service follows: it stops accepting, releases the lock, and its process ends.
        await until(async () => !(await accepting(port)), t.signal);
        await until(() => !existsSync(join(dataDir, LOCK_FILE)), t.signal);
        await until(() => !groupAlive(pgid), t.signal);
        await outputEnded;
        assert.match(output, /SIGTERM: stopping/, 'stopped by its own handler, cleanly');

        // The data directory is free: another service opens it.
        const next = await startTestService({ dataDir });
        await next.close();
      } finally {
        if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
