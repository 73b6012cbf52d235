/**
 * Fuzz: a few thousand seeded requests across every route (openapi signed well and badly,
 * console with and without the token, the editor's page), asserting that none ends in a 5xx,
 * that every answer is the envelope, and that a refused request changes nothing stored. Two
 * checks of the last: after every refused write, the journal has not grown (every committed
 * change is a journal record; snapshots are held off during the run), and for one refused write
 * in SAMPLE, the console's view of the data (workspace, trash, the target robot's rules, trash
 * and categories) has the same digest before and after it, which also covers what lives in
 * memory.
 *
 * FUZZ_SEED picks another sequence, FUZZ_REQUESTS another length (the seed of a failure is in
 * its message).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { Agent, request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type {
  ConsoleCategory,
  ConsoleWorkspace,
  RulePage,
} from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { FuzzGenerator } from '../helpers/fuzz-requests';
import type { FuzzRequest, FuzzRobot, FuzzState } from '../helpers/fuzz-requests';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';
import { databaseFor } from '../helpers/test-store';

const SEED = Number(process.env.FUZZ_SEED ?? 20261212);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2000);
/** The fuzz stops here whatever the count (the machine is shared; this is a test, not a soak). */
const TIME_BOUND_MS = 30_000;
/** One write in SAMPLE is also checked against the console's view (each check is ~6 requests). */
const SAMPLE = 8;

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** One problem of a console failure's data: each part, when there, of its type. */
function isProblem(value: unknown): boolean {
  if (!isObject(value)) return false;
  const { field, keyword, params } = value;
  return (
    (field === undefined || typeof field === 'string') &&
    (keyword === undefined || typeof keyword === 'string') &&
    (params === undefined || isObject(params))
  );
}

/** A failure's data: null (openapi routes, or nothing to add) or ConsoleFailureData. */
function isFailureData(data: unknown): boolean {
  if (data === null) return true;
  if (!isProblem(data) || !isObject(data)) return false;
  const { problems } = data;
  return problems === undefined || (Array.isArray(problems) && problems.every(isProblem));
}

function send(port: number, fuzz: FuzzRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: fuzz.method,
        path: fuzz.path,
        // Node sends a DELETE's body with neither length nor chunks unless told: say its length.
        headers:
          fuzz.body === undefined
            ? fuzz.headers
            : { ...fuzz.headers, 'content-length': String(Buffer.byteLength(fuzz.body)) },
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(fuzz.body);
  });
}

/** Drops what the console computes from the clock rather than stores (a rule's state). */
function stored(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stored);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'state')
      .map(([key, child]) => [key, stored(child)]),
  );
}

describe('fuzz', () => {
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  let state: FuzzState;
  before(async () => {
    // No snapshot during the run: the journal only grows, and only by committed writes.
    h = await startTestService({ snapshotJournalBytes: 2 ** 30, snapshotIdleMs: 3_600_000 });
    api = consoleClient(h.service.url, h.service.consoleToken);
    const a = await registerTenantWithRobot(h.client);
    const b = await registerTenantWithRobot(h.client);
    const c = await registerTenantWithRobot(h.client);
    const second = await h.client.createRobot(a.tenantId, 'second');
    const robots: FuzzRobot[] = [a, b].map(({ tenantId, robot }) => ({
      tenantId,
      robotId: robot.robotId,
      secret: robot.robotSecret,
    }));
    robots.push({ tenantId: a.tenantId, robotId: second.robotId, secret: second.robotSecret });
    const imported = await a.robot.importRules(
      Array.from({ length: 20 }, (_, i) => ruleInput(`seed rule ${i}`, [`怎么退货 ${i}`, `q${i}`])),
    );
    state = {
      robots,
      sacrificial: { tenantId: c.tenantId, robotId: 'default', secret: c.robot.robotSecret },
      ruleIds: imported.succeed.map((rule) => rule.ruleId),
      categoryIds: [],
      userIds: [],
      consoleToken: h.service.consoleToken,
    };
  });
  /** On PostgreSQL: the connection that reads the store's position. */
  let positions: pg.Client | undefined;
  after(async () => {
    agent.destroy();
    await positions?.end();
    await h.close();
  });

  /**
   * A figure that grows with every committed write: the bytes of journal the embedded store has
   * written, or the PostgreSQL store's position sequence (taken by every changing transaction).
   */
  async function committedWrites(): Promise<number> {
    const database = await databaseFor(h.dataDir);
    if (database === undefined) {
      return readdirSync(h.dataDir)
        .filter((name) => name.startsWith('journal'))
        .reduce((sum, name) => sum + statSync(join(h.dataDir, name)).size, 0);
    }
    if (!positions) {
      positions = new pg.Client({ connectionString: database });
      await positions.connect();
    }
    const { rows } = await positions.query<{ last_value: string; is_called: boolean }>(
      'SELECT last_value, is_called FROM kb_position',
    );
    const row = rows[0];
    return row?.is_called ? Number(row.last_value) : 0;
  }

  /** The console's view of the data a request may reach, as one hash. */
  async function digest(target?: FuzzRobot): Promise<string> {
    const robots = target ? [target] : [...state.robots, state.sacrificial];
    const views = await Promise.all([
      api.call<ConsoleWorkspace>('GET', '/workspace'),
      api.call('GET', '/trash'),
      ...robots.flatMap(({ tenantId, robotId }) => {
        const R = `/tenants/${tenantId}/robots/${encodeURIComponent(robotId)}`;
        return [
          api.call<RulePage>('GET', `${R}/rules?limit=1000`),
          api.call('GET', `${R}/rules/trash?limit=1000`),
          api.call<{ categories: ConsoleCategory[] }>('GET', `${R}/categories`),
        ];
      }),
    ]);
    const [workspace] = views;
    // Secrets rotate: sign with what the service has now; aim at its administrators.
    for (const tenant of workspace?.body.data?.tenants ?? []) {
      for (const robot of tenant.robots) {
        const known = [...state.robots, state.sacrificial].find(
          (r) => r.tenantId === tenant.tenantId && r.robotId === robot.robotId,
        );
        if (known) known.secret = robot.robotSecret;
      }
      if (tenant.tenantId === state.sacrificial.tenantId) continue;
      for (const user of tenant.users) {
        if (!state.userIds.includes(user.userId)) state.userIds.push(user.userId);
      }
    }
    for (const view of views) {
      const data = view.body.data as { categories?: ConsoleCategory[] } | null;
      for (const category of data?.categories ?? []) {
        if (!state.categoryIds.includes(category.categoryId)) {
          state.categoryIds.push(category.categoryId);
        }
      }
    }
    const text = JSON.stringify(views.map((view) => [view.status, stored(view.body)]));
    return createHash('sha256').update(text).digest('hex');
  }

  /** Learns the ids a successful answer names, to aim later requests at them. */
  function learn(body: unknown): void {
    const seen = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(seen);
      if (typeof value !== 'object' || value === null) return;
      const record = value as Record<string, unknown>;
      if (typeof record.ruleId === 'string' && !state.ruleIds.includes(record.ruleId)) {
        state.ruleIds.push(record.ruleId);
      }
      Object.values(record).forEach(seen);
    };
    seen(body);
  }

  test(`${REQUESTS} requests (seed ${SEED}): no 5xx, always the envelope, refusals change nothing`, async () => {
    const generator = new FuzzGenerator(SEED, state);
    const started = Date.now();
    const statuses = new Map<number, number>();
    let refusedWrites = 0;
    let viewChecks = 0;
    let journal = await committedWrites();
    const journalAtStart = journal;
    await digest();
    let sent = 0;
    for (; sent < REQUESTS && Date.now() - started < TIME_BOUND_MS; sent++) {
      const fuzz = generator.next();
      const where = `request ${sent} (seed ${SEED}): ${fuzz.method} ${fuzz.path.slice(0, 400)} ${JSON.stringify(fuzz.headers)} ${fuzz.body?.slice(0, 300)}`;
      const sampled = fuzz.writes && sent % SAMPLE === 0;
      const before = sampled ? await digest(fuzz.robot) : '';
      const answer = await send(h.service.port, fuzz);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      assert.ok(answer.status < 500, `${answer.status} ${answer.body} for ${where}`);
      if (fuzz.page && answer.status === 200) {
        assert.match(answer.contentType, /^text\/html/, where);
        continue;
      }
      assert.match(answer.contentType, /^application\/json/, where);
      const body = JSON.parse(answer.body) as Record<string, unknown>;
      // `errors` lists every refused field (issue 13); it only comes with a refusal.
      assert.deepEqual(
        Object.keys(body)
          .filter((key) => key !== 'errors' || body.code === '0')
          .sort(),
        ['code', 'data', 'msg'],
        `${answer.status} ${answer.body} for ${where}`,
      );
      assert.equal(typeof body.code, 'string', where);
      const refused = body.code !== '0';
      assert.equal(
        refused,
        answer.status >= 400,
        `status ${answer.status}, code ${String(body.code)}: ${where}`,
      );
      if (refused) {
        assert.equal(typeof body.msg, 'string', where);
        assert.ok(isFailureData(body.data), `${answer.body} for ${where}`);
      } else {
        learn(body.data);
      }
      if (!fuzz.writes) continue;
      const grown = await committedWrites();
      if (refused) {
        refusedWrites += 1;
        assert.equal(
          grown,
          journal,
          `a refused request wrote to the journal: ${answer.body} for ${where}`,
        );
        if (sampled) {
          viewChecks += 1;
          assert.equal(
            await digest(fuzz.robot),
            before,
            `a refused request changed the console's view: ${answer.body} for ${where}`,
          );
        }
      }
      journal = grown;
    }
    const elapsed = Date.now() - started;
    console.log(
      `fuzz: ${sent} requests in ${elapsed} ms, ${refusedWrites} refused writes checked (${viewChecks} against the console's view); statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
    assert.ok(sent >= Math.min(REQUESTS, 1000), `only ${sent} requests within ${TIME_BOUND_MS} ms`);
    // Both sides of the checks were reached, and the check of writes can see a write.
    assert.ok(journal > journalAtStart, 'no accepted write reached the store');
    assert.ok(viewChecks > 20, `only ${viewChecks} refusals checked against the console's view`);
    assert.ok((statuses.get(200) ?? 0) > sent / 20, 'too few requests were accepted');
    for (const status of [400, 401, 403, 404]) assert.ok(statuses.has(status), `no ${status}`);
  });
});
