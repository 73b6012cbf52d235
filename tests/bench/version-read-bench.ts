/**
 * `npm run bench -- --version-reads [--version-rules N]`: the longest hold of the event loop
 * while the diff between two versions of N rules (default 10,000) is made, the versions read in
 * pages with a turn between (publishing/targets.ts), against the same diff with each version
 * read in one store call (what the service did before), in the same run on the same store.
 * Medians of --rounds (default 3). The machine is shared: compare the ratio.
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRobots } from '../../electron/service/domain/robot-loading';
import { silentLogger } from '../../electron/service/logger';
import { normalizeText } from '../../electron/service/matching/index';
import { diffRules } from '../../electron/service/publishing/rule-diff';
import { diff } from '../../electron/service/publishing/versions';
import { EmbeddedStore } from '../../electron/service/store/embedded/embedded-store';
import { nodeMemoryWithPublishing, storeRule } from '../helpers/node-memory';
import { round } from './stats';

export interface VersionReadFigures {
  rules: number;
  rounds: number;
  pagedHoldMs: number;
  wholeHoldMs: number;
  pagedMs: number;
  wholeMs: number;
}

/** The longest stretch the event loop went unturned while `work` ran (a 1 ms timer's gaps). */
async function longestHold(work: () => Promise<unknown>): Promise<{ holdMs: number; ms: number }> {
  let last = performance.now();
  let holdMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    holdMs = Math.max(holdMs, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  try {
    await work();
    return { holdMs: Math.max(holdMs, performance.now() - last), ms: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

export async function measureVersionReads(
  size: number,
  rounds: number,
): Promise<VersionReadFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'kbstudio-version-reads-'));
  const store = await EmbeddedStore.open({
    dataDir: dir,
    logger: silentLogger,
    textKey: normalizeText,
  });
  try {
    const publishing = nodeMemoryWithPublishing(store);
    const ctx = publishing.ctx;
    const tenantId = await store.tenants.register({
      tenant: { phoneNumber: '1', mail: 'm@example.com', company: 'c', createdAt: 0 },
      admin: { userId: 'u1', username: 'a', usernameKey: 'a', passwordHash: 'x', role: 'ADMIN' },
      robot: { robotId: 'default', name: 'R', secret: 's1', settingsJson: '{}', createdAt: 0 },
    });
    await loadRobots(ctx, { file: null }, null);
    await publishing.load();
    const robot = ctx.robots.get(tenantId, 'default');
    if (!robot) throw new Error('no robot');
    const rules = Array.from({ length: size }, (_, i) =>
      storeRule(`r${i}`, `question number ${i} about item ${i % 97}`),
    );
    for (let i = 0; i < size; i += 1000) {
      await store.rules.insert(robot, rules.slice(i, i + 1000), 0, 'bench');
    }
    const request = { note: '', author: 'a', now: 1, confirmedFailures: null };
    await store.versions.publish(robot, request);
    await store.rules.remove(robot, ['r1', 'r2', 'r3'], 2, 'bench');
    await store.versions.publish(robot, { ...request, now: 3 });
    const whole = async () => {
      const all = (version: number) => store.versions.rulesFrom(robot, version, 0, size + 1);
      return diffRules(await all(1), await all(2));
    };
    const paged: number[] = [];
    const single: number[] = [];
    const pagedMs: number[] = [];
    const singleMs: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const a = await longestHold(() => diff(ctx, robot, 1, 2));
      const b = await longestHold(whole);
      paged.push(a.holdMs);
      pagedMs.push(a.ms);
      single.push(b.holdMs);
      singleMs.push(b.ms);
    }
    return {
      rules: size,
      rounds,
      pagedHoldMs: median(paged),
      wholeHoldMs: median(single),
      pagedMs: median(pagedMs),
      wholeMs: median(singleMs),
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function versionReadLine(f: VersionReadFigures): string {
  return (
    `version diff, ${f.rules} rules (median of ${f.rounds}): longest loop hold ` +
    `${round(f.pagedHoldMs, 1)} ms paged vs ${round(f.wholeHoldMs, 1)} ms read whole → ratio ` +
    `${round(f.pagedHoldMs / f.wholeHoldMs, 2)}; time ${round(f.pagedMs, 0)} vs ` +
    `${round(f.wholeMs, 0)} ms → ratio ${round(f.pagedMs / f.wholeMs, 2)}`
  );
}
