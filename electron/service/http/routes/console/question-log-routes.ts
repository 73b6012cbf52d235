/**
 * The question log's console routes: the log, its export and clearing, the inbox of missed
 * questions and its actions, rule analytics and the dashboard (question-log-types.ts).
 * @module
 */
import { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DomainContext } from '../../../domain/context';
import { robotKey } from '../../../domain/robot-directory';
import type { Robot } from '../../../domain/robot-directory';
import { createRule } from '../../../domain/rule-editing';
import { addPhrasings } from '../../../domain/rule-phrasings';
import { ServiceError } from '../../../errors';
import { LIMITS } from '../../../limits';
import { normalizeText } from '../../../matching/normalize';
import { addCases } from '../../../publishing/test-sets';
import type { QuestionLog } from '../../../question-log/question-log';
import { RuleFactsCache } from '../../../question-log/rule-facts-cache';
import type { InboxAddResult, InboxTestCasesResult } from '../../../question-log-types';
import {
  AnalyticsQuery,
  DashboardQuery,
  InboxAddPhrasingsBody,
  InboxDismissBody,
  InboxNewRuleBody,
  InboxQuery,
  InboxTestCasesBody,
  QuestionLogExportQuery,
  QuestionLogQuery,
} from '../../../validation/question-log-schemas';
import { success, successJsonInSlices } from '../../envelope';
import { CONSOLE, robotFromParams, robotRoute } from './workspace-routes';
import type { RobotParams } from './workspace-routes';
import { actorOf } from '../../console-gate';

const R = `${CONSOLE}/tenants/:tenantId/robots/:robotId`;

/** A count from the query, within its bounds, else the API's 400 naming it. */
function bounded(value: string | undefined, fallback: number, max: number, field: string): number {
  const n = value === undefined ? fallback : Number(value);
  if (n < 1 || n > max) {
    throw new ServiceError('invalid-paging', `${field} must be between 1 and ${max}.`, field, {
      keyword: 'range',
      params: { minimum: 1, maximum: max },
    });
  }
  return n;
}

/** A reply whose lists are serialised a slice at a time: the same bytes as `success(data)`. */
async function sendInSlices(reply: FastifyReply, data: Record<string, unknown>) {
  return reply.type('application/json; charset=utf-8').send(await successJsonInSlices(data));
}

/** A success whose data is JSON text already made (decision 162): `success(data)`'s bytes. */
function sendJson(reply: FastifyReply, data: string) {
  return reply
    .type('application/json; charset=utf-8')
    .send(`{"code":"0","msg":"success","data":${data}}`);
}

const timeOf = (iso: string | undefined) => (iso === undefined ? undefined : Date.parse(iso));

/**
 * In review mode a fix goes to the draft: the published version (which keeps missing until the
 * next publish) is remembered with the mark. Null in live mode, where the draft answers.
 */
async function unfixedVersion(ctx: DomainContext, robot: Robot): Promise<number | null> {
  if (robot.settings.publishMode !== 'review') return null;
  return (await ctx.store.versions.latest(robot))?.version ?? null;
}

export function registerQuestionLogRoutes(
  app: FastifyInstance,
  ctx: DomainContext,
  log: QuestionLog,
): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const robotOf = (params: RobotParams): Promise<Robot> => robotFromParams(ctx, params);
  const factsOf = new RuleFactsCache();

  typed.get(`${R}/question-log`, robotRoute({ querystring: QuestionLogQuery }), async (request) => {
    const query = request.query;
    const robot = await robotOf(request.params);
    return success(
      await log.page(robot, {
        from: timeOf(query.from),
        to: timeOf(query.to),
        offset: Number(query.offset ?? 0),
        limit: bounded(query.limit, 100, 1000, 'limit'),
        ...(query.before !== undefined ? { before: query.before } : {}),
        ...(query.q !== undefined ? { q: query.q } : {}),
        ...(query.outcome !== undefined ? { outcome: query.outcome } : {}),
        ...(query.source !== undefined ? { source: query.source } : {}),
        ...(query.ruleId !== undefined ? { ruleId: query.ruleId } : {}),
        ...(query.userId !== undefined ? { userId: query.userId } : {}),
      }),
    );
  });

  typed.get(
    `${R}/question-log/export.csv`,
    robotRoute({ querystring: QuestionLogExportQuery }),
    async (request, reply) => {
      const query = request.query;
      const robot = await robotOf(request.params);
      // Streamed a slice of the log at a time: never the whole log in memory, never an ask held.
      const csv = Readable.from(log.csv(robot, timeOf(query.from), timeOf(query.to)));
      return reply
        .type('text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="question-log-${robot.tenantId}-${robot.robotId}.csv"`,
        )
        .send(csv);
    },
  );

  typed.post(`${R}/question-log/clear`, robotRoute({}), async (request) =>
    success({ removed: await log.clear(await robotOf(request.params)) }),
  );

  typed.get(`${R}/inbox`, robotRoute({ querystring: InboxQuery }), async (request) => {
    const { limit } = request.query;
    const robot = await robotOf(request.params);
    const groups = await log.inbox(robot, bounded(limit, 50, 1000, 'limit'), (ids) =>
      ctx.store.rules.namesOf(ids),
    );
    return success({ groups });
  });

  typed.post(
    `${R}/inbox/add-phrasings`,
    robotRoute({ body: InboxAddPhrasingsBody }),
    async (request) => {
      const { key, ruleId, questions } = request.body;
      const robot = await robotOf(request.params);
      const added: InboxAddResult = await addPhrasings(
        ctx,
        robot,
        ruleId,
        questions,
        actorOf(request),
      );
      // Handled once its questions are phrasings of the rule (added now or there already).
      if (added.notFitting.length === 0) {
        await log.mark(robot, [key], 'handled', await unfixedVersion(ctx, robot));
      }
      return success(added);
    },
  );

  typed.post(`${R}/inbox/new-rule`, robotRoute({ body: InboxNewRuleBody }), async (request) => {
    const { key, ...edit } = request.body;
    const robot = await robotOf(request.params);
    const rule = await createRule(ctx, robot, edit, actorOf(request));
    await log.mark(robot, [key], 'handled', await unfixedVersion(ctx, robot));
    return success({ ruleId: rule.ruleId });
  });

  typed.post(`${R}/inbox/test-cases`, robotRoute({ body: InboxTestCasesBody }), async (request) => {
    const { key, questions, expect, ruleId } = request.body;
    const robot = await robotOf(request.params);
    if (expect === 'rule' && ruleId === undefined) {
      throw new ServiceError(
        'missing-field',
        'ruleId: a case expecting a rule names it.',
        'ruleId',
        { keyword: 'required', params: { missingProperty: 'ruleId' } },
      );
    }
    // A question the test set holds already (or twice in the request) is one case.
    const known = new Set(
      (await ctx.store.testSets.cases(robot)).map((c) => normalizeText(c.question)),
    );
    const fresh: string[] = [];
    const present: string[] = [];
    for (const question of questions) {
      const norm = normalizeText(question);
      if (known.has(norm)) present.push(question);
      else {
        known.add(norm);
        fresh.push(question);
      }
    }
    const added =
      fresh.length === 0
        ? []
        : await addCases(
            ctx,
            robot,
            fresh.map((question) =>
              expect === 'rule' ? { question, expect, ruleId } : { question, expect },
            ),
          );
    // A case expecting the fallback makes the fallback right for these questions.
    await log.mark(robot, [key], expect === 'fallback' ? 'fallback' : 'handled');
    const result: InboxTestCasesResult = { caseIds: added.map((c) => c.caseId), present };
    return success(result);
  });

  typed.post(`${R}/inbox/dismiss`, robotRoute({ body: InboxDismissBody }), async (request) => {
    const { keys } = request.body;
    const robot = await robotOf(request.params);
    return success({ dismissed: await log.mark(robot, keys, 'dismissed') });
  });

  // Every rule's figures (10k rules: ~1 MB of JSON) serialised in slices, never in one hold.
  typed.get(`${R}/rule-hits`, robotRoute({}), async (request, reply) =>
    sendInSlices(reply, { rules: await log.ruleHits(await robotOf(request.params)) }),
  );

  typed.get(
    `${R}/analytics`,
    robotRoute({ querystring: AnalyticsQuery }),
    async (request, reply) => {
      const { offset, limit } = request.query;
      const robot = await robotOf(request.params);
      if (limit === undefined) {
        // On the team server PostgreSQL makes the rules' JSON (decision 162).
        const json = await log.analyticsJson(robot);
        if (json !== undefined) return sendJson(reply, json);
        // Names and validity only (not phrasings), kept until the store's next write (decision
        // 168). The team server's path is above: its other nodes' writes do not move `position`.
        const facts = await factsOf.of(robotKey(robot), ctx.store.position, () =>
          ctx.store.rules.facts(robot),
        );
        const analytics = await log.analytics(robot, facts);
        return sendInSlices(reply, { ...analytics });
      }
      // A page in creation order, as the rules grid pages (decision 118).
      const { rows, total } = await ctx.store.rules.query(robot, {
        offset: Number(offset ?? 0),
        limit: bounded(limit, 100, LIMITS.pageSizeMax, 'limit'),
        now: ctx.now(),
        sort: 'created',
        descending: false,
      });
      return success(
        await log.analyticsPage(robot, {
          rules: rows.map((rule) => ({
            ruleId: rule.ruleId,
            ruleName: rule.ruleName,
            effectEnd: rule.effectEnd,
          })),
          total,
          existing: async (ruleIds) => new Set((await ctx.store.rules.namesOf(ruleIds)).keys()),
        }),
      );
    },
  );

  typed.get(`${R}/dashboard`, robotRoute({ querystring: DashboardQuery }), async (request) => {
    const { days } = request.query;
    const robot = await robotOf(request.params);
    return success(await log.dashboard(robot, bounded(days, 30, 366, 'days')));
  });
}
