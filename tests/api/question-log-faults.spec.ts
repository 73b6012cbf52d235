/**
 * The question log and the service's own output when they cannot be written (issue 28): a
 * read-only log folder (EROFS, a read-only bind mount: the tests run as root, whom chmod 0500
 * does not stop), stdout and stderr a pipe whose reader has gone (EPIPE), and stdout and stderr a
 * file on a full disk (ENOSPC, a real tmpfs). Each time asks keep being answered and the process
 * stays up; the entries the log could not write are counted (the pages' `lost`). An I/O error
 * (EIO) cannot be made here without a faulty device: not tested. The embedded store's log only
 * (a team server's log is in its database); skipped, with the reason printed, where mounting is
 * not allowed.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { QuestionLogPage } from '../../electron/service/question-log-types';
import { HEADLESS, spawnService } from '../helpers/child-service';
import type { ChildService } from '../helpers/child-service';
import { consoleClient } from '../helpers/console-client';
import {
  TEST_CREDENTIALS,
  TEST_ENV,
  makeDataDir,
  ruleInput,
  tenantRequest,
} from '../helpers/service';
import { fillDisk, mountTmpfs } from '../helpers/tmpfs';
import type { Tmpfs } from '../helpers/tmpfs';
import { EMBEDDED_FILES_ONLY, storeEnv } from '../helpers/test-store';

const MB = 1024 * 1024;
const ASKS = 60;
const QUESTION = 'What are your opening hours';
/** The report once writing works again (the failure's own line says "until writing works again"). */
const REPORT = /entries of \S+ could not be written \([A-Z]+\).*writing works again/;

/** Waits for a condition the service reaches by itself (a flush a second); fails past `ms`. */
async function waitFor(
  what: string,
  check: () => Promise<boolean> | boolean,
  context = () => '',
  ms = 30_000,
) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n${context()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What fillDisk leaves (less than its chunk) taken too, a byte at a time at the end. */
function fillToTheByte(path: string): void {
  fillDisk(path, 0);
  const fd = openSync(path, 'a');
  try {
    for (const size of [4096, 1]) {
      const chunk = Buffer.alloc(size);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw error;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** A folder made read-only where it is (a read-only bind mount of itself); undo() restores it. */
function bindReadOnly(dir: string): { undo(): void } | { skip: string } {
  const bound = spawnSync('mount', ['--bind', dir, dir], { encoding: 'utf8' });
  if (bound.status !== 0) return { skip: `cannot bind-mount here (${bound.stderr.trim()})` };
  const ro = spawnSync('mount', ['-o', 'remount,ro,bind', dir, dir], { encoding: 'utf8' });
  if (ro.status !== 0) {
    spawnSync('umount', [dir]);
    return { skip: `cannot remount read-only here (${ro.stderr.trim()})` };
  }
  return { undo: () => void spawnSync('umount', [dir]) };
}

interface Running {
  url: string;
  output(): string;
  alive(): boolean;
}

/** Whether a file under `dir` holds bytes: the log has written there. */
function writtenUnder(dir: string): boolean {
  if (!existsSync(dir)) return false;
  return readdirSync(dir, { withFileTypes: true }).some((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? writtenUnder(path) : statSync(path).size > 0;
  });
}

/**
 * A robot with one rule on a running service, and its log's first page, once its first entry is
 * on disk (a page shows entries not written yet: the fault must not meet this one).
 */
async function robotOn(service: Running, dataDir: string) {
  const client = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS });
  const { tenantId } = await client.registerTenant(tenantRequest());
  const [listed] = await client.listRobots(tenantId);
  const robot = client.robot(tenantId, 'default', listed?.robotSecret ?? '');
  await robot.importRules([ruleInput('hours', [QUESTION])]);
  const token = /token=([\w-]+)/.exec(service.output())?.[1] ?? '';
  const api = consoleClient(service.url, token);
  const R = `/tenants/${tenantId}/robots/default`;
  const page = () => api.ok<QuestionLogPage>('GET', `${R}/question-log?limit=5`);
  await robot.ask(QUESTION, 'before');
  await waitFor('the first entry', async () => (await page()).total === 1);
  const logDir = join(dataDir, 'question-log', String(tenantId), 'default');
  await waitFor('the first entry on disk', () => writtenUnder(logDir));
  return { robot, page, tenantId, logDir };
}

/** Asks while the log cannot be written: every one answered, the lost ones counted, still up. */
async function askThroughFault(
  service: Running,
  robot: RobotClient,
  page: () => Promise<QuestionLogPage>,
) {
  for (let i = 0; i < ASKS; i++) {
    const answer = await robot.ask(QUESTION, `fault-${i}`);
    assert.equal(answer.answerType, 'BESTMATCH', 'answered while the log cannot be written');
  }
  await waitFor(
    'the lost entries',
    async () => ((await page()).lost?.count ?? 0) > 0,
    () => service.output(),
  );
  assert.ok(service.alive(), 'the process is up');
}

/** Once writing works again: the next entry is logged, asks answered, the process up. */
async function recovers(
  service: Running,
  robot: RobotClient,
  page: () => Promise<QuestionLogPage>,
) {
  const answer = await robot.ask(QUESTION, 'after');
  assert.equal(answer.answerType, 'BESTMATCH');
  await waitFor(
    'the entry after',
    async () => (await page()).entries.some((entry) => entry.userId === 'after'),
    () => service.output(),
  );
  const { lost } = await page();
  assert.ok((lost?.count ?? 0) > 0 && (lost?.count ?? 0) <= ASKS, `lost: ${lost?.count}`);
  assert.ok(service.alive(), 'still up');
}

const running = (service: ChildService): Running => ({
  url: service.url,
  output: service.output,
  alive: () => service.child.exitCode === null && service.child.signalCode === null,
});

describe(
  'the question log and the output when they cannot be written',
  {
    skip: EMBEDDED_FILES_ONLY,
  },
  () => {
    const cleanups: (() => void)[] = [];
    after(() => {
      for (const cleanup of cleanups.reverse()) cleanup();
    });

    test('a read-only log folder (EROFS)', async (t) => {
      const dataDir = makeDataDir('log-read-only');
      const service = await spawnService(dataDir);
      cleanups.push(() => {
        service.child.kill('SIGKILL');
        rmSync(dataDir, { recursive: true, force: true });
      });
      const up = running(service);
      const { robot, page, logDir } = await robotOn(up, dataDir);
      const bound = bindReadOnly(logDir);
      if ('skip' in bound) {
        console.log(`question-log faults (read-only folder): skipped: ${bound.skip}`);
        t.skip(bound.skip);
        return;
      }
      try {
        await askThroughFault(up, robot, page);
        assert.match(service.output(), /could not write \d+ entries of \S+ \(EROFS\)/);
      } finally {
        bound.undo();
      }
      await recovers(up, robot, page);
      await waitFor('the report in the output', () => REPORT.test(service.output()));
    });

    describe('on a full disk (real tmpfs)', () => {
      const mount = mountTmpfs(24 * MB);
      const skip = 'skip' in mount ? mount.skip : undefined;
      const fs = mount as Tmpfs;
      if (skip) console.log(`question-log faults (tmpfs): skipped: ${skip}`);
      else cleanups.push(() => fs.unmount());

      test('stdout and stderr a pipe whose reader has gone (EPIPE)', { skip }, async () => {
        const dataDir = join(fs.dir, 'epipe');
        const service = await spawnService(dataDir);
        cleanups.push(() => service.child.kill('SIGKILL'));
        const up = running(service);
        const { robot, page } = await robotOn(up, dataDir);
        // The reading ends close: each line the service writes from now on meets EPIPE.
        service.child.stdout?.destroy();
        service.child.stderr?.destroy();
        const filler = join(fs.dir, 'filler-epipe');
        fillToTheByte(filler);
        try {
          // The log's failures are said on stderr: into the closed pipe.
          await askThroughFault(up, robot, page);
        } finally {
          rmSync(filler);
        }
        await recovers(up, robot, page);
      });

      test('stdout and stderr a file on the full disk (ENOSPC)', { skip }, async () => {
        const dataDir = join(fs.dir, 'enospc');
        mkdirSync(dataDir);
        const outputFile = join(fs.dir, 'service-output.log');
        const fd = openSync(outputFile, 'a');
        const child = spawn(process.execPath, [HEADLESS, '--data', dataDir, '--port', '0'], {
          env: { ...process.env, ...TEST_ENV, ...(await storeEnv(dataDir)) },
          stdio: ['ignore', fd, fd],
        });
        closeSync(fd);
        cleanups.push(() => child.kill('SIGKILL'));
        const output = () => readFileSync(outputFile, 'utf8');
        let url = '';
        await waitFor('the service to listen', () => {
          url = /listening on (http:\/\/\S+)/.exec(output())?.[1] ?? '';
          return url !== '';
        });
        const up: Running = {
          url,
          output,
          alive: () => child.exitCode === null && child.signalCode === null,
        };
        const { robot, page } = await robotOn(up, dataDir);
        const filler = join(fs.dir, 'filler-enospc');
        fillToTheByte(filler);
        try {
          // The log's failures are said on stderr: into the file that cannot grow.
          await askThroughFault(up, robot, page);
        } finally {
          rmSync(filler);
        }
        await recovers(up, robot, page);
        // The output works again with the space: the report reaches it.
        await waitFor('the report in the output', () => REPORT.test(output()));
      });
    });
  },
);
