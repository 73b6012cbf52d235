import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { DomainContext } from '../../../domain/context';
import { getConsoleRule, otherPhrasingKeys } from '../../../domain/rule-editing';
import { ServiceError } from '../../../errors';
import { similarPhrasings } from '../../../simgen/similar-phrasings';
import { RulePath } from '../../../validation/path-schemas';
import { success } from '../../envelope';
import { CONSOLE, robotFromParams } from './workspace-routes';

/** Proposals a review list shows; accepting one is an ordinary edit of the rule's phrasings. */
const PROPOSALS_MAX = 20;

/**
 * Similar phrasings proposed for a rule that allows them (`allowSimGen` true): nothing is added
 * to the rule here (docs/conversation.md, "Similar phrasings").
 */
export function registerSimilarRoute(app: FastifyInstance, ctx: DomainContext): void {
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .post(
      `${CONSOLE}/tenants/:tenantId/robots/:robotId/rules/:ruleId/similar`,
      { config: { console: true }, schema: { params: RulePath } },
      async (request) => {
        const robot = await robotFromParams(ctx, request.params);
        const { ruleId } = request.params;
        const rule = await getConsoleRule(ctx, robot, ruleId);
        if (rule.allowSimGen !== true) {
          throw new ServiceError(
            'invalid-field',
            'This rule does not allow similar phrasings: set allowSimGen first.',
            'allowSimGen',
            { keyword: 'const', params: { allowedValue: true } },
          );
        }
        const proposals = similarPhrasings(rule.questions, {
          synonyms: robot.settings.synonyms,
          taken: await otherPhrasingKeys(ctx, robot, ruleId),
          limit: PROPOSALS_MAX,
        });
        return success({ proposals });
      },
    );
}
