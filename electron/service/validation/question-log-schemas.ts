/**
 * Schemas of the question log's console routes (question-log-types.ts).
 * @module
 */
import { Type } from '@sinclair/typebox';
import { LIMITS } from '../limits';
import { ISO_WITH_OFFSET } from './effective-window';
import { decimal, string, text } from './schemas';

const iso = string({ pattern: ISO_WITH_OFFSET });
const groupKey = string({ minLength: 1, maxLength: LIMITS.askQuestionMax * 2 });
const question = text(LIMITS.questionMax);

export const QuestionLogQuery = Type.Object({
  /** Entries from this time on (ISO 8601 with an offset). */
  from: Type.Optional(iso),
  /** Entries before this time. */
  to: Type.Optional(iso),
  /** A page's `next`: the entries older than it. */
  before: Type.Optional(string({ pattern: '^[0-9A-Za-z.-]{1,64}$' })),
  offset: Type.Optional(decimal),
  limit: Type.Optional(decimal),
  q: Type.Optional(string({ maxLength: 200 })),
  /** Entries answered by this rule. */
  ruleId: Type.Optional(string({ minLength: 1, maxLength: 64 })),
  /** Entries of this user id (exactly). */
  userId: Type.Optional(string({ minLength: 1, maxLength: LIMITS.askUserIdMax })),
  outcome: Type.Optional(
    Type.Unsafe<'answered' | 'recommended' | 'fallback'>({
      type: 'string',
      enum: ['answered', 'recommended', 'fallback'],
    }),
  ),
  source: Type.Optional(Type.Unsafe<'api' | 'try'>({ type: 'string', enum: ['api', 'try'] })),
});

export const QuestionLogExportQuery = Type.Object({
  from: Type.Optional(iso),
  to: Type.Optional(iso),
});

export const InboxQuery = Type.Object({ limit: Type.Optional(decimal) });

/** Without `limit`, every rule of the robot; with it, a page in creation order (decision 118). */
export const AnalyticsQuery = Type.Object({
  offset: Type.Optional(decimal),
  limit: Type.Optional(decimal),
});

export const DashboardQuery = Type.Object({ days: Type.Optional(decimal) });

export const InboxAddPhrasingsBody = Type.Object({
  key: groupKey,
  ruleId: string({ minLength: 1, maxLength: 64 }),
  questions: Type.Array(question, { minItems: 1, maxItems: 50 }),
});

export const InboxNewRuleBody = Type.Object({
  key: groupKey,
  ruleName: text(LIMITS.ruleNameMax),
  questions: Type.Array(question, { minItems: 1, maxItems: LIMITS.questionsMax }),
  answer: text(LIMITS.answerMax),
});

export const InboxDismissBody = Type.Object({
  keys: Type.Array(groupKey, { minItems: 1, maxItems: 1000 }),
});

export const InboxTestCasesBody = Type.Object({
  key: groupKey,
  questions: Type.Array(text(LIMITS.askQuestionMax), { minItems: 1, maxItems: 50 }),
  expect: Type.Unsafe<'rule' | 'fallback'>({ type: 'string', enum: ['rule', 'fallback'] }),
  ruleId: Type.Optional(string({ minLength: 1, maxLength: 64 })),
});
