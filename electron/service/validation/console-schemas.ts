/**
 * Schemas of the console API's bodies (console-types.ts). Rule limits are the interface's.
 * @module
 */
import { Type } from '@sinclair/typebox';
import { LIMITS } from '../limits';
import { ISO_WITH_OFFSET } from './effective-window';
import { decimal, text } from './schemas';

const isoOrNull = Type.Union([Type.String({ pattern: ISO_WITH_OFFSET }), Type.Null()]);

const ruleFields = {
  ruleName: text(LIMITS.ruleNameMax),
  questions: Type.Array(text(LIMITS.questionMax), { minItems: 1, maxItems: LIMITS.questionsMax }),
  answer: text(LIMITS.answerMax),
  ruleCategoryId: Type.String({ maxLength: LIMITS.categoryMax }),
  active: Type.Boolean(),
  allowSimGen: Type.Union([Type.Boolean(), Type.Null()]),
  effectBeignDate: isoOrNull,
  effectEndDate: isoOrNull,
};

export const RuleEditBody = Type.Object({
  ruleName: ruleFields.ruleName,
  questions: ruleFields.questions,
  answer: ruleFields.answer,
  ruleCategoryId: Type.Optional(ruleFields.ruleCategoryId),
  active: Type.Optional(ruleFields.active),
  allowSimGen: Type.Optional(ruleFields.allowSimGen),
  effectBeignDate: Type.Optional(ruleFields.effectBeignDate),
  effectEndDate: Type.Optional(ruleFields.effectEndDate),
});

export const RulePatchBody = Type.Partial(RuleEditBody);

const ruleIds = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  minItems: 1,
  maxItems: 100_000,
});

export const RuleIdsBody = Type.Object({ ruleIds });

export const SetActiveBody = Type.Object({ ruleIds, active: Type.Boolean() });

export const SetCategoryBody = Type.Object({ ruleIds, category: ruleFields.ruleCategoryId });

export const RestoreBody = Type.Object({
  rules: Type.Array(
    Type.Object({
      ...ruleFields,
      ruleId: Type.String({ minLength: 1, maxLength: 64 }),
      seq: Type.Optional(Type.Integer({ minimum: 1 })),
      createdAt: Type.Optional(Type.String()),
    }),
    { minItems: 1, maxItems: 100_000 },
  ),
});

const score = Type.Number({ minimum: 0, maximum: 1 });

export const RobotPatchBody = Type.Object({
  name: Type.Optional(text(LIMITS.robotNameMax)),
  settings: Type.Optional(
    Type.Partial(
      Type.Object({
        bestmatchThreshold: score,
        recommendThreshold: score,
        margin: score,
        maxRecommend: Type.Integer({ minimum: 1, maximum: LIMITS.recommendMax }),
        recommendText: text(LIMITS.answerMax),
        fallbackText: text(LIMITS.answerMax),
        synonyms: Type.Array(
          Type.Array(text(LIMITS.synonymMax), { minItems: 2, maxItems: LIMITS.synonymMembersMax }),
          { maxItems: LIMITS.synonymGroupsMax },
        ),
      }),
    ),
  ),
});

export const TryBody = Type.Object({ question: text(LIMITS.askQuestionMax) });

export const RuleQueryString = Type.Object({
  offset: Type.Optional(decimal),
  limit: Type.Optional(decimal),
  q: Type.Optional(Type.String({ maxLength: 200 })),
  active: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
  category: Type.Optional(Type.String({ maxLength: LIMITS.categoryMax })),
  sort: Type.Optional(
    Type.Union(
      ['created', 'updated', 'ruleName', 'category', 'active'].map((key) => Type.Literal(key)),
    ),
  ),
  dir: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
});
