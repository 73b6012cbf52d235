import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from '../../../errors';
import type { PublishingRoom } from '../../../publishing/publishing-room';
import { IMPACT_DAYS, impactOf } from '../../../publishing/impact';
import { parseTarget } from '../../../publishing/targets';
import { compareRuns, readRun } from '../../../publishing/test-runs';
import { addCases, listCases, removeCases, updateCase } from '../../../publishing/test-sets';
import { thresholdCurves } from '../../../publishing/thresholds';
import {
  checkGate,
  diff,
  discardDraft,
  history,
  publish,
  rollback,
  rulesOf,
  unpublished,
} from '../../../publishing/versions';
import { categoryNames } from '../../../domain/categories';
import { toConsoleRule } from '../../../domain/rule-views';
import {
  CaseIdsBody,
  CompareQuery,
  DiffQuery,
  ImpactJobBody,
  ImpactQuery,
  ModeSwitchBody,
  PublishBody,
  RollbackBody,
  TargetQuery,
  TestCaseBody,
  TestCasesBody,
  TestRunBody,
} from '../../../validation/publishing-schemas';
import {
  RunJobPath,
  TestCasePath,
  TestRunPath,
  VersionPath,
} from '../../../validation/path-schemas';
import { success } from '../../envelope';
import { CONSOLE, robotFromParams, robotRoute } from './workspace-routes';
import type { RobotParams } from './workspace-routes';
import { actorOf } from '../../console-gate';

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
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const robotOf = (request: { params: RobotParams }) => robotFromParams(ctx, request.params);

  typed.get(`${ROBOT}/versions`, robotRoute({}), async (request) =>
    success(await history(ctx, await robotOf(request))),
  );

  typed.get(`${ROBOT}/versions/preview`, robotRoute({}), async (request) => {
    const robot = await robotOf(request);
    return success({
      diff: await diff(ctx, robot, 'published', 'draft'),
      gate: await checkGate(ctx, robot),
    });
  });

  typed.get(`${ROBOT}/versions/unpublished`, robotRoute({}), async (request) =>
    success(await unpublished(ctx, await robotOf(request))),
  );

  typed.post(`${ROBOT}/versions/discard`, robotRoute({}), async (request) =>
    success(await discardDraft(ctx, await robotOf(request), actorOf(request))),
  );

  typed.post(`${ROBOT}/versions/mode`, robotRoute({ body: ModeSwitchBody }), async (request) => {
    const { publishMode, author } = request.body;
    const robot = await robotOf(request);
    const done = await room.switchMode(robot, publishMode, authorOf(request, author));
    return success({ publishMode: done.robot.settings.publishMode, version: done.version });
  });

  typed.get(`${ROBOT}/versions/diff`, robotRoute({ querystring: DiffQuery }), async (request) => {
    const { from, to } = request.query;
    const robot = await robotOf(request);
    return success(await diff(ctx, robot, parseTarget(from, 'from'), parseTarget(to, 'to')));
  });

  typed.post(`${ROBOT}/versions`, robotRoute({ body: PublishBody }), async (request) => {
    const robot = await robotOf(request);
    const body = request.body;
    return success(
      await publish(
        ctx,
        room.editions,
        robot,
        { ...body, author: authorOf(request, body.author) },
        room.impactGate,
      ),
    );
  });

  // What answering from `to` instead of `from` changes for the customers' questions of the last
  // `days` days: those a changed rule can reach replayed in time slices, answered when done.
  typed.get(
    `${ROBOT}/versions/impact`,
    robotRoute({ querystring: ImpactQuery }),
    async (request) => {
      const { from, to, days } = request.query;
      const robot = await robotOf(request);
      return success(
        await impactOf(
          ctx,
          room.asks,
          robot,
          {
            from: parseTarget(from ?? 'published', 'from'),
            to: parseTarget(to ?? 'draft', 'to'),
            days: days === undefined ? IMPACT_DAYS : Number(days),
          },
          {},
          room.replay,
        ),
      );
    },
  );

  // The same preview as a job the editor polls: a large log takes longer than a request waits.
  typed.post(
    `${ROBOT}/versions/impact/jobs`,
    robotRoute({ body: ImpactJobBody }),
    async (request) => {
      const { from, to, days } = request.body;
      const robot = await robotOf(request);
      return success(
        room.impacts.start(robot, {
          from: parseTarget(from ?? 'published', 'from'),
          to: parseTarget(to ?? 'draft', 'to'),
          days: days ?? IMPACT_DAYS,
        }),
      );
    },
  );

  typed.get(
    `${ROBOT}/versions/impact/jobs/:jobId`,
    { ...console, schema: { params: RunJobPath } },
    async (request) => success(room.impacts.get(await robotOf(request), request.params.jobId)),
  );

  typed.get(
    `${ROBOT}/versions/:version/rules`,
    { ...console, schema: { params: VersionPath } },
    async (request) => {
      const robot = await robotOf(request);
      const version = positive(request.params.version, 'Version', 'version-not-found');
      const rules = await rulesOf(ctx, robot, version);
      const names = await categoryNames(ctx, robot);
      const now = ctx.now();
      return success({ rules: rules.map((rule) => toConsoleRule(rule, now, names)) });
    },
  );

  typed.post(
    `${ROBOT}/versions/:version/rollback`,
    { ...console, schema: { params: VersionPath, body: RollbackBody } },
    async (request) => {
      const robot = await robotOf(request);
      const version = positive(request.params.version, 'Version', 'version-not-found');
      const body = request.body;
      // Without a note the version says what it is by `rolledBackTo`, in the editor's language.
      const note = body.note ?? '';
      return success({
        version: await rollback(
          ctx,
          room.editions,
          robot,
          version,
          {
            note,
            author: authorOf(request, body.author),
          },
          actorOf(request),
        ),
      });
    },
  );

  typed.get(`${ROBOT}/test-cases`, robotRoute({}), async (request) =>
    success({ cases: await listCases(ctx, await robotOf(request)) }),
  );

  typed.post(`${ROBOT}/test-cases`, robotRoute({ body: TestCasesBody }), async (request) =>
    success({ cases: await addCases(ctx, await robotOf(request), request.body.cases) }),
  );

  typed.put(
    `${ROBOT}/test-cases/:caseId`,
    { ...console, schema: { params: TestCasePath, body: TestCaseBody } },
    async (request) => {
      const robot = await robotOf(request);
      const caseId = positive(request.params.caseId, 'Test case', 'test-case-not-found');
      return success(await updateCase(ctx, robot, caseId, request.body));
    },
  );

  typed.post(`${ROBOT}/test-cases/delete`, robotRoute({ body: CaseIdsBody }), async (request) =>
    success({ deleted: await removeCases(ctx, await robotOf(request), request.body.caseIds) }),
  );

  typed.post(`${ROBOT}/test-runs`, robotRoute({ body: TestRunBody }), async (request) => {
    const robot = await robotOf(request);
    const target = parseTarget(request.body.target ?? 'draft', 'target');
    return success(room.runs.start(robot, target));
  });

  typed.get(`${ROBOT}/test-runs`, robotRoute({}), async (request) => {
    const heads = await ctx.store.testSets.runs(await robotOf(request), 100);
    return success({
      runs: heads.map((head) => ({ ...head, summary: JSON.parse(head.summary) as unknown })),
    });
  });

  typed.get(
    `${ROBOT}/test-runs/jobs/:jobId`,
    { ...console, schema: { params: RunJobPath } },
    async (request) => success(room.runs.get(await robotOf(request), request.params.jobId)),
  );

  typed.get(
    `${ROBOT}/test-runs/compare`,
    robotRoute({ querystring: CompareQuery }),
    async (request) => {
      const { a, b } = request.query;
      return success(await compareRuns(ctx, await robotOf(request), Number(a), Number(b)));
    },
  );

  typed.get(
    `${ROBOT}/test-runs/:runId`,
    { ...console, schema: { params: TestRunPath } },
    async (request) => {
      const robot = await robotOf(request);
      const runId = positive(request.params.runId, 'Test run', 'test-run-not-found');
      return success(await readRun(ctx, robot, runId));
    },
  );

  typed.get(`${ROBOT}/thresholds`, robotRoute({ querystring: TargetQuery }), async (request) => {
    const { target } = request.query;
    const robot = await robotOf(request);
    return success(await thresholdCurves(ctx, robot, parseTarget(target ?? 'draft', 'target')));
  });
}
