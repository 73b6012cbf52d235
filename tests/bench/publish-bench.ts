/**
 * Publishing's figures (docs/publishing.md): at 10k and 100k rules in review mode, the time of a
 * publish after one small edit (next to the edit's own time, in the same run), the extra bytes on
 * disk per version after 100 small edits each published, and a test run of 5,000 cases at the
 * largest size. In-process service on a real data directory; the disk is measured after clean
 * stops (snapshot written, journal empty).
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RuleInput } from '../../electron/service/api-types';
import { startService } from '../../electron/service/index';
import type { KbService } from '../../electron/service/index';
import { silentLogger } from '../../electron/service/logger';
import type { RunJob, TestRun } from '../../electron/service/publishing-types';
import { consoleClient } from '../helpers/console-client';
import { TEST_CREDENTIALS, TEST_ENV, makeDataDir, tenantRequest } from '../helpers/service';
import { generateRules } from './generate-rules';
import { percentile } from './stats';
import { typedVariant } from './typed-questions';

export interface PublishFigures {
  size: number;
  publishMs: number;
  editMs: number;
  versionBytes: number;
  edits: number;
  testRunMs?: number;
  testCases?: number;
}

function dirBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

const start = (dataDir: string) =>
  startService({ dataDir, logger: silentLogger, env: TEST_ENV, port: 0 });

export async function measurePublishing(
  size: number,
  edits: number,
  testCases: number,
): Promise<PublishFigures> {
  const dataDir = makeDataDir('bench-publish');
  let service: KbService = await start(dataDir);
  try {
    const client = new OpenApiClient({ baseUrl: service.url, ...TEST_CREDENTIALS });
    const { tenantId } = await client.registerTenant(tenantRequest());
    const secret = (await client.listRobots(tenantId))[0]?.robotSecret ?? '';
    const robot = client.robot(tenantId, 'default', secret);
    const rules: RuleInput[] = generateRules(size, 42);
    const ruleIds: string[] = [];
    for (let i = 0; i < rules.length; i += 1000) {
      const result = await robot.importRules(rules.slice(i, i + 1000));
      ruleIds.push(...result.succeed.map((rule) => rule.ruleId));
    }
    const R = `/tenants/${tenantId}/robots/default`;
    let api = consoleClient(service.url, service.consoleToken);
    // The switch publishes the whole draft as version 1: the one copy every robot pays once.
    await api.ok('PATCH', R, { settings: { publishMode: 'review' } });
    await service.stop();
    const before = dirBytes(dataDir);
    service = await start(dataDir);
    api = consoleClient(service.url, service.consoleToken);
    const publishTimes: number[] = [];
    const editTimes: number[] = [];
    for (let k = 0; k < edits; k++) {
      const ruleId = ruleIds[(k * 7919) % ruleIds.length] as string;
      const rule = rules[(k * 7919) % rules.length] as RuleInput;
      let t = performance.now();
      await api.ok('PATCH', `${R}/rules/${ruleId}`, { answer: `${rule.answer} (edit ${k})` });
      editTimes.push(performance.now() - t);
      t = performance.now();
      await api.ok('POST', `${R}/versions`, { note: `edit ${k}`, author: 'bench' });
      publishTimes.push(performance.now() - t);
    }
    await service.stop();
    const versionBytes = (dirBytes(dataDir) - before) / edits;
    service = await start(dataDir);
    const figures: PublishFigures = {
      size,
      publishMs: percentile(publishTimes, 50),
      editMs: percentile(editTimes, 50),
      versionBytes,
      edits,
    };
    if (testCases > 0) {
      api = consoleClient(service.url, service.consoleToken);
      // Half whole phrasings (questions that must keep working), half typed variants of them
      // (questions kept from the try pane or the inbox), each expecting its rule.
      const cases = Array.from({ length: testCases }, (_, i) => {
        const k = (i * 104_729) % rules.length;
        const rule = rules[k] as RuleInput;
        const phrasing = rule.questions[i % rule.questions.length] ?? rule.ruleName;
        return {
          question: i % 2 === 0 ? phrasing : typedVariant(phrasing, i),
          expect: 'rule',
          ruleId: ruleIds[k],
        };
      });
      await api.ok('POST', `${R}/test-cases`, { cases });
      const t = performance.now();
      let job = await api.ok<RunJob>('POST', `${R}/test-runs`, { target: 'draft' });
      while (job.state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 25));
        job = await api.ok<RunJob>('GET', `${R}/test-runs/jobs/${job.jobId}`);
      }
      figures.testRunMs = performance.now() - t;
      if (job.state !== 'done') throw new Error(`test run failed: ${JSON.stringify(job)}`);
      const run = await api.ok<TestRun>('GET', `${R}/test-runs/${job.runId}`);
      figures.testCases = run.summary.total;
    }
    return figures;
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
