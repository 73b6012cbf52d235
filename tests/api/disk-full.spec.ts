/**
 * A full disk on a real small file system (a tmpfs): a snapshot that cannot be written leaves
 * no temporary file behind and wedges nothing; a write that cannot be journaled is refused with
 * `storage-failure` and nothing of it is kept; once space returns the service goes on by itself
 * (writes answered, the next snapshot written) and a stop exits 0 with every acknowledged batch
 * there after a restart. Skipped, with the reason printed, where mounting a tmpfs is not allowed;
 * tests/unit/storage/disk-full.test.ts injects ENOSPC instead and runs everywhere.
 */
import assert from 'node:assert/strict';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RobotClient } from '../../electron/client/openapi-client';
import { spawnService } from '../helpers/child-service';
import type { ChildService } from '../helpers/child-service';
import { TEST_CREDENTIALS, ruleInput, tenantRequest } from '../helpers/service';
import { fillDisk, mountTmpfs } from '../helpers/tmpfs';
import type { Tmpfs } from '../helpers/tmpfs';
import { EMBEDDED_FILES_ONLY } from '../helpers/test-store';

const MB = 1024 * 1024;
const ANSWER = '答'.repeat(300); // 900 bytes of UTF-8: rules of about a kilobyte

function batch(id: string, count: number) {
  return Array.from({ length: count }, (_, i) =>
    ruleInput(`${id}#${i}`, [`${id} question ${i}`], `${id} ${i} ${ANSWER}`),
  );
}

async function waitFor(
  what: string,
  check: () => boolean,
  timeoutMs = 20_000,
  context = () => '',
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${context()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const tempFiles = (dir: string) => readdirSync(dir).filter((name) => name.includes('.tmp-'));

describe('a full disk (real tmpfs)', { skip: EMBEDDED_FILES_ONLY }, () => {
  const mount = mountTmpfs(24 * MB);
  const skip = 'skip' in mount ? mount.skip : undefined;
  const fs = mount as Tmpfs;
  let service: ChildService | undefined;
  after(() => {
    service?.child.kill('SIGKILL');
    if (!skip) fs.unmount();
  });
  if (skip) console.log(`disk-full (tmpfs): skipped: ${skip}`);

  let dataDir = '';
  let robot: RobotClient;
  let filler = '';
  const acknowledged: string[] = [];
  const refused: string[] = [];
  const importBatch = async (id: string, count: number) => {
    const response = await robot.send<{ succeed: unknown[] }>('POST', '/kb/rules/full/batch', {
      body: batch(id, count),
    });
    if (response.status === 200) acknowledged.push(id);
    return response;
  };

  before(async () => {
    if (skip) return;
    dataDir = join(fs.dir, 'data');
    filler = join(fs.dir, 'filler');
    // Snapshots every 100 KB of journal: the batches below trigger them.
    service = await spawnService(dataDir, { env: { KB_SNAPSHOT_BYTES: String(100_000) } });
    const client = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS });
    const { tenantId } = await client.registerTenant(tenantRequest());
    const [first] = await client.listRobots(tenantId);
    robot = client.robot(tenantId, 'default', first?.robotSecret ?? '');
    // A database of about 2 MB, snapshotted.
    for (let k = 0; k < 10; k++) assert.equal((await importBatch(`pre${k}`, 200)).status, 200);
    // Every snapshot they called for written, none under way or due: one still writing when the
    // disk is filled below would free the old snapshot's bytes at its rename, and the snapshot
    // the first test needs to fail would then fit. A written snapshot deletes the journal it
    // covers and the next segment starts only with the next write, so no journal file at all
    // means none is pending (one segment alone may be one a snapshot is being built from).
    await waitFor('the snapshot of the first batches', () => {
      const names = readdirSync(dataDir);
      return (
        names.includes('kb.sqlite') &&
        statSync(join(dataDir, 'kb.sqlite')).size > 1.5 * MB &&
        !names.some((name) => name.startsWith('journal-')) &&
        tempFiles(dataDir).length === 0
      );
    });
  });

  test(
    'a snapshot that does not fit leaves no temporary file and wedges no write',
    { skip },
    async () => {
      // Leave ~900 KB: enough for the journal, not for a 2 MB snapshot. Filled again before
      // every batch and while waiting, so that space freed meanwhile (by anything) cannot let
      // the snapshot fit.
      const keepFull = () => fillDisk(filler, 900 * 1024);
      keepFull();
      const failuresBefore = (service?.output().match(/snapshot failed/g) ?? []).length;
      const snapshotFailed = () =>
        (service?.output().match(/snapshot failed/g) ?? []).length > failuresBefore;
      // While the snapshot's temporary file takes the last bytes, a write may find the disk
      // full: it is refused (and must not be there later), never half-done. Eight batches
      // (~160 KB) call for a snapshot; more would fill the disk with journal while the snapshot
      // is built (on a worker thread, seconds), leaving no room for the writes after it.
      for (let k = 0; k < 8 && !snapshotFailed(); k++) {
        keepFull();
        const response = await importBatch(`full${k}`, 20);
        if (response.status !== 200) {
          assert.equal(response.body.code, 'storage-failure', `batch ${k}: ${response.status}`);
          refused.push(`full${k}`);
        }
      }
      await waitFor(
        'a failed snapshot',
        () => {
          if (snapshotFailed()) return true;
          keepFull();
          return false;
        },
        20_000,
        () =>
          `\nfiles: ${readdirSync(dataDir)
            .map((n) => `${n} ${statSync(join(dataDir, n)).size}`)
            .join(', ')}\nservice output:\n${service?.output()}`,
      );
      assert.deepEqual(tempFiles(dataDir), [], 'the failed snapshot left its temporary file');
      // Writes still work after the failure: the space the snapshot took is free again.
      for (let k = 0; k < 3; k++) {
        const response = await importBatch(`after${k}`, 20);
        assert.equal(
          response.status,
          200,
          `write ${k} after the failed snapshot: ${response.body.code}`,
        );
      }
    },
  );

  test(
    'a write that cannot be journaled is refused and keeps nothing; writes resume once space returns',
    { skip },
    async () => {
      rmSync(filler, { force: true });
      fillDisk(filler, 0);
      const response = await importBatch('refused', 200);
      assert.equal(response.status, 500);
      assert.equal(response.body.code, 'storage-failure');
      refused.push('refused');
      rmSync(filler, { force: true });
      assert.deepEqual(tempFiles(dataDir), []);
      const retried = await importBatch('retried', 200);
      assert.equal(retried.status, 200, `a write once space returned: ${retried.body.code}`);
      const { list } = await robot.listRules(0, 1000);
      assert.ok(
        !list.some((rule) => rule.ruleName.startsWith('refused#')),
        'a refused batch left rules',
      );
    },
  );

  test(
    'with space back, the service snapshots by itself and a stop exits 0',
    { skip },
    async () => {
      // The next attempt comes at most a minute after the last failure (the back-off's cap).
      await waitFor(
        'a snapshot covering the journal written on a full disk',
        () => {
          const names = readdirSync(dataDir);
          return (
            names.filter((name) => name.startsWith('journal-')).length <= 1 &&
            tempFiles(dataDir).length === 0 &&
            /snapshot written again/.test(service?.output() ?? '')
          );
        },
        75_000,
        () =>
          `\nfiles: ${readdirSync(dataDir)
            .map((n) => `${n} ${statSync(join(dataDir, n)).size}`)
            .join(', ')}\nservice output:\n${service?.output()}`,
      );
      service?.child.kill('SIGTERM');
      assert.equal(await service?.exited, 0, `stop output:\n${service?.output()}`);
      service = await spawnService(dataDir);
      const client = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS });
      const reopened = client.robot(robot.tenantId, 'default', robot.robotSecret);
      const names = new Set<string>();
      for (let page = 0; ; page++) {
        const { list, totalCount } = await reopened.listRules(page, 1000);
        list.forEach((rule) => names.add(rule.ruleName.slice(0, rule.ruleName.indexOf('#'))));
        if (list.length === 0 || (page + 1) * 1000 >= totalCount) break;
      }
      for (const id of acknowledged)
        assert.ok(names.has(id), `acknowledged batch ${id} is missing`);
      service.child.kill('SIGTERM');
      assert.equal(await service.exited, 0);
      service = undefined;
    },
  );
});
