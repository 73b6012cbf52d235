import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TryResult } from '../../../console-types';
import { ask } from '../../../domain/ask';
import type { DomainContext } from '../../../domain/context';
import { TryBody } from '../../../validation/console-schemas';
import { success } from '../../envelope';
import { robotFromParams } from './workspace-routes';

/** The try pane: exactly what ask would answer, plus every candidate with its reasons. */
export function registerTryRoute(app: FastifyInstance, ctx: DomainContext): void {
  app.post(
    '/console/api/tenants/:tenantId/robots/:robotId/try',
    { config: { console: true }, schema: { body: TryBody } },
    async (request) => {
      const robot = robotFromParams(ctx, request.params);
      const { result, decision } = ask(
        ctx,
        robot,
        (request.body as Static<typeof TryBody>).question,
      );
      const names = new Map<string, string>();
      for (const candidate of decision.candidates) {
        const row = ctx.store.get<{ rule_name: string }>(
          'SELECT rule_name FROM rules WHERE rule_id = ?',
          [candidate.ruleId],
        );
        if (row) names.set(candidate.ruleId, row.rule_name);
      }
      const body: TryResult = {
        result,
        decision: decision.kind,
        candidates: decision.candidates.map((candidate) => ({
          ruleId: candidate.ruleId,
          ruleName: names.get(candidate.ruleId) ?? '',
          question: candidate.question,
          score: candidate.score,
          parts: candidate.parts,
        })),
      };
      return success(body);
    },
  );
}
