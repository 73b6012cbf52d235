import type { Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from '../../../errors';
import type { PublishingRoom } from '../../../publishing/publishing-room';
import { parseTarget } from '../../../publishing/targets';
import { compareRuns, readRun } from '../../../publishing/test-runs';
import { addCases, listCases, removeCases, updateCase } from '../../../publishing/test-sets';
import { thresholdCurves } from '../../../publishing/thresholds';
import { checkGate, diff, history, publish, rollback, rulesOf } from '../../../publishing/versions';
import { categoryNames } from '../../../domain/categories';
import { toConsoleRule } from '../../../domain/rule-views';
import {
  CaseIdsBody,
  CompareQuery,
  DiffQuery,
  PublishBody,
  RollbackBody,
  TargetQuery,
  TestCaseBody,
  TestCasesBody,
  TestRunBody,
} from '../../../validation/publishing-schemas';
import { success } from '../../envelope';
import { CONSOLE, robotFromParams } from './workspace-routes';

const ROBOT = `${CONSOLE}/tenants/:tenantId/robots/:robotId`;

function positive(
  text: string,
  what: string,
  code: 'version-not-found' | 'test-case-not-found' | 'test-run-not-found',
): number {
  const n = /^[1-9]\d{0,14}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n)) throw new ServiceError(code, `${what} ${text} does not exist.`);
  return n;
}

/** Versions, publish and its gate, rollback, diffs; test sets, runs and threshold curves. */
/**
 * A version's author: the administrator chosen in the editor, or on a team server the one signed
 * in (whoever the editor names).
 */
function authorOf(request: FastifyRequest, chosen: string): string {
  return request.editor?.tenantId != null ? request.editor.actor : chosen;
}

export function registerPublishingRoutes(app: FastifyInstance, room: PublishingRoom): void {
  const { ctx } = room;
  const console = { config: { console: true } };
  const robotOf = (request: { params: unknown }) => robotFromParams(ctx, request.params);
  const param = (request: { params: unknown }, name: string) =>
    (request.params as Record<string, string>)[name] ?? '';

  app.get(`${ROBOT}/versions`, console, async (request) =>
    success(await history(ctx, await robotOf(request))),
  );

  app.get(`${ROBOT}/versions/preview`, console, async (request) => {
    const robot = await robotOf(request);
    return success({
      diff: await diff(ctx, robot, 'published', 'draft'),
      gate: await checkGate(ctx, robot),
    });
  });

  app.get(
    `${ROBOT}/versions/diff`,
    { ...console, schema: { querystring: DiffQuery } },
    async (request) => {
      const { from, to } = request.query as Static<typeof DiffQuery>;
      const robot = await robotOf(request);
      return success(await diff(ctx, robot, parseTarget(from, 'from'), parseTarget(to, 'to')));
    },
  );

  app.post(`${ROBOT}/versions`, { ...console, schema: { body: PublishBody } }, async (request) => {
    const robot = await robotOf(request);
    const body = request.body as Static<typeof PublishBody>;
    return success(
      await publish(ctx, room.editions, robot, { ...body, author: authorOf(request, body.author) }),
    );
  });

  app.get(`${ROBOT}/versions/:version/rules`, console, async (request) => {
    const robot = await robotOf(request);
    const version = positive(param(request, 'version'), 'Version', 'version-not-found');
    const rules = await rulesOf(ctx, robot, version);
    const names = await categoryNames(ctx, robot);
    const now = ctx.now();
    return success({ rules: rules.map((rule) => toConsoleRule(rule, now, names)) });
  });

  app.post(
    `${ROBOT}/versions/:version/rollback`,
    { ...console, schema: { body: RollbackBody } },
    async (request) => {
      const robot = await robotOf(request);
      const version = positive(param(request, 'version'), 'Version', 'version-not-found');
      const body = request.body as Static<typeof RollbackBody>;
      const note = body.note ?? `rollback to version ${version}`;
      return success({
        version: await rollback(ctx, room.editions, robot, version, {
          note,
          author: authorOf(request, body.author),
        }),
      });
    },
  );

  app.get(`${ROBOT}/test-cases`, console, async (request) =>
    success({ cases: await listCases(ctx, await robotOf(request)) }),
  );

  app.post(
    `${ROBOT}/test-cases`,
    { ...console, schema: { body: TestCasesBody } },
    async (request) => {
      const { cases } = request.body as Static<typeof TestCasesBody>;
      return success({ cases: await addCases(ctx, await robotOf(request), cases) });
    },
  );

  app.put(
    `${ROBOT}/test-cases/:caseId`,
    { ...console, schema: { body: TestCaseBody } },
    async (request) => {
      const robot = await robotOf(request);
      const caseId = positive(param(request, 'caseId'), 'Test case', 'test-case-not-found');
      return success(
        await updateCase(ctx, robot, caseId, request.body as Static<typeof TestCaseBody>),
      );
    },
  );

  app.post(
    `${ROBOT}/test-cases/delete`,
    { ...console, schema: { body: CaseIdsBody } },
    async (request) => {
      const { caseIds } = request.body as Static<typeof CaseIdsBody>;
      return success({ deleted: await removeCases(ctx, await robotOf(request), caseIds) });
    },
  );

  app.post(`${ROBOT}/test-runs`, { ...console, schema: { body: TestRunBody } }, async (request) => {
    const robot = await robotOf(request);
    const body = request.body as Static<typeof TestRunBody>;
    return success(room.runs.start(robot, parseTarget(body.target ?? 'draft', 'target')));
  });

  app.get(`${ROBOT}/test-runs`, console, async (request) => {
    const heads = await ctx.store.testSets.runs(await robotOf(request), 100);
    return success({
      runs: heads.map((head) => ({ ...head, summary: JSON.parse(head.summary) as unknown })),
    });
  });

  app.get(`${ROBOT}/test-runs/jobs/:jobId`, console, async (request) =>
    success(room.runs.get(await robotOf(request), param(request, 'jobId'))),
  );

  app.get(
    `${ROBOT}/test-runs/compare`,
    { ...console, schema: { querystring: CompareQuery } },
    async (request) => {
      const { a, b } = request.query as Static<typeof CompareQuery>;
      return success(await compareRuns(ctx, await robotOf(request), Number(a), Number(b)));
    },
  );

  app.get(`${ROBOT}/test-runs/:runId`, console, async (request) => {
    const robot = await robotOf(request);
    const runId = positive(param(request, 'runId'), 'Test run', 'test-run-not-found');
    return success(await readRun(ctx, robot, runId));
  });

  app.get(
    `${ROBOT}/thresholds`,
    { ...console, schema: { querystring: TargetQuery } },
    async (request) => {
      const { target } = request.query as Static<typeof TargetQuery>;
      const robot = await robotOf(request);
      return success(await thresholdCurves(ctx, robot, parseTarget(target ?? 'draft', 'target')));
    },
  );
}
