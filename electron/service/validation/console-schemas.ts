/**
 * Schemas of the console API's bodies, queries and path parameters: the one statement of them.
 * The request types of console-types.ts are derived from these (`Static`), and the routes get
 * their bodies typed from them (Fastify's TypeBox type provider). Rule limits are the
 * interface's.
 * @module
 */
import { Type } from '@sinclair/typebox';
import type { Static, TSchema, TUnsafe } from '@sinclair/typebox';
import { LIMITS } from '../limits';
import { ISO_WITH_OFFSET } from './effective-window';
import { CreateRobotBody, RegisterTenantBody, decimal, string, text } from './schemas';

const isoOrNull = Type.Union([string({ pattern: ISO_WITH_OFFSET }), Type.Null()]);

/** An entry of a rule's menu: the text shown and the rule it leads to (docs/conversation.md). */
export const MenuEntrySchema = Type.Object({
  ruleId: string({ minLength: 1, maxLength: 64 }),
  text: text(LIMITS.questionMax),
});

/** Whether a rule is answered now: switched on and inside its window, or why not. */
export const RULE_STATES = ['active', 'inactive', 'scheduled', 'expired'] as const;

/** `hits` and `lastHit` sort by the question log's figures (never-hit rules count 0). */
export const RULE_SORT_KEYS = [
  'created',
  'updated',
  'ruleName',
  'category',
  'active',
  'hits',
  'lastHit',
] as const;

/** One of `values`, as a union of literals (the query's schemas say a wrong one that way). */
const literalUnion = <T extends string>(values: readonly T[]) =>
  Type.Union(values.map((value) => Type.Literal(value)));

export const ruleFields = {
  ruleName: text(LIMITS.ruleNameMax),
  questions: Type.Array(text(LIMITS.questionMax), { minItems: 1, maxItems: LIMITS.questionsMax }),
  answer: text(LIMITS.answerMax),
  ruleCategoryId: string({ maxLength: 20 }),
  categoryName: string({ maxLength: LIMITS.categoryMax }),
  active: Type.Boolean(),
  allowSimGen: Type.Union([Type.Boolean(), Type.Null()]),
  effectBeignDate: isoOrNull,
  effectEndDate: isoOrNull,
  matchPolicy: Type.Unsafe<'similarity' | 'exact' | 'contains'>({
    type: 'string',
    enum: ['similarity', 'exact', 'contains'],
  }),
  negativeKeywords: Type.Array(text(LIMITS.keywordMax), { maxItems: LIMITS.negativeKeywordsMax }),
  menu: Type.Union([Type.Array(MenuEntrySchema, { maxItems: LIMITS.menuEntriesMax }), Type.Null()]),
};

export const RuleEditBody = Type.Object({
  ruleName: ruleFields.ruleName,
  questions: ruleFields.questions,
  answer: ruleFields.answer,
  ruleCategoryId: Type.Optional(ruleFields.ruleCategoryId),
  categoryName: Type.Optional(ruleFields.categoryName),
  active: Type.Optional(ruleFields.active),
  allowSimGen: Type.Optional(ruleFields.allowSimGen),
  effectBeignDate: Type.Optional(ruleFields.effectBeignDate),
  effectEndDate: Type.Optional(ruleFields.effectEndDate),
  matchPolicy: Type.Optional(ruleFields.matchPolicy),
  negativeKeywords: Type.Optional(ruleFields.negativeKeywords),
  menu: Type.Optional(ruleFields.menu),
});

export const RulePatchBody = Type.Partial(RuleEditBody);

const ruleIds = Type.Array(string({ minLength: 1, maxLength: 64 }), {
  minItems: 1,
  maxItems: 100_000,
});

export const RuleIdsBody = Type.Object({ ruleIds });

export const SetActiveBody = Type.Object({ ruleIds, active: Type.Boolean() });

/** Files rules under a category by id, or by name (`category`, made if new); '' for none. */
export const SetCategoryBody = Type.Object({
  ruleIds,
  categoryId: Type.Optional(ruleFields.ruleCategoryId),
  category: Type.Optional(ruleFields.categoryName),
});

export const RestoreBody = Type.Object({ ruleIds });

/** An enum, not a union of literals: a wrong value is then said as "must be one of …". */
const language = Type.Unsafe<'zh' | 'en'>({ type: 'string', enum: ['zh', 'en'] });

/** The console's registration: the openapi's, and the editor's language for the first robot. */
export const ConsoleRegisterBody = Type.Object({
  ...RegisterTenantBody.properties,
  language: Type.Optional(language),
});

export const ConsoleCreateRobotBody = Type.Object({
  ...CreateRobotBody.properties,
  language: Type.Optional(language),
});

export const CategoryNameBody = Type.Object({ name: text(LIMITS.categoryMax) });

export const CategoryMergeBody = Type.Object({
  from: Type.Array(ruleFields.ruleCategoryId, { minItems: 1, maxItems: 1000 }),
  into: ruleFields.ruleCategoryId,
});

const score = Type.Number({ minimum: 0, maximum: 1 });
/**
 * A setting, or null for "back to the default": Ajv's `nullable` rather than a union, so that a
 * wrong value is said by its own rule (a maximum, a length), not as "must match anyOf".
 */
const orDefault = <T extends TSchema>(schema: T) =>
  Type.Unsafe<Static<T> | null>({
    ...schema,
    nullable: true,
    ...(Array.isArray(schema.enum) ? { enum: [...(schema.enum as unknown[]), null] } : {}),
  });

/**
 * Each robot setting's schema (the editor checks its form with them); `ConsoleRobotSettings`
 * (console-types.ts) is their type.
 */
export const ROBOT_SETTINGS = {
  bestmatchThreshold: score,
  recommendThreshold: score,
  margin: score,
  maxRecommend: Type.Integer({ minimum: 1, maximum: LIMITS.recommendMax }),
  /** The language of the robot's default texts: set, or found from its rules' names. */
  language,
  recommendText: text(LIMITS.answerMax),
  fallbackText: text(LIMITS.answerMax),
  /**
   * Groups of words or phrases that mean the same in this robot's knowledge base, e.g.
   * [["充值", "充钱", "top up"]]: each is matched as the group's first member.
   */
  synonyms: Type.Array(
    Type.Array(text(LIMITS.synonymMax), { minItems: 2, maxItems: LIMITS.synonymMembersMax }),
    { maxItems: LIMITS.synonymGroupsMax },
  ),
  /** Days the question log keeps (docs/question-log.md). */
  logRetentionDays: Type.Integer({ minimum: 1, maximum: 3650 }),
  /** Largest size of the question log on disk, in MB. */
  logMaxMegabytes: Type.Integer({ minimum: 1, maximum: 100_000 }),
  /** Small talk (module CHAT) when no rule matches better; on by default. */
  chitChat: Type.Boolean(),
  /** The assistant's name in small-talk answers (`{persona}`). */
  persona: text(LIMITS.personaMax),
  /**
   * Small-talk answers replacing the built-in ones, keyed `intent.language` (`greeting.zh`); the
   * intents are the small-talk pack's.
   */
  chitChatAnswers: Type.Unsafe<Record<string, string>>({
    type: 'object',
    patternProperties: { '^[a-z_]+\\.(zh|en)$': text(LIMITS.answerMax) },
    additionalProperties: false,
    maxProperties: 100,
  }),
  /** `live`: saved changes are answered at once; `review`: after publishing (docs/publishing.md). */
  publishMode: Type.Unsafe<'live' | 'review'>({ type: 'string', enum: ['live', 'review'] }),
  /**
   * Refuse a publish when more than this % of last week's customers' questions would be
   * answered differently (docs/publishing.md); 100 (the default) is off.
   */
  impactGatePercent: Type.Number({ minimum: 0, maximum: 100 }),
  /**
   * The robot's embedding model (docs/matching.md, "Fusion"): the service's default provider,
   * none, or the robot's own (`custom`: the three below). The API key is set apart
   * (`PUT R/embedding/key`) and never returned.
   */
  embeddingMode: Type.Unsafe<'default' | 'off' | 'custom'>({
    type: 'string',
    enum: ['default', 'off', 'custom'],
  }),
  embeddingApi: Type.Unsafe<'openai' | 'ollama'>({ type: 'string', enum: ['openai', 'ollama'] }),
  /** `http://host:port/v1` (openai) or `http://host:port` (ollama); '' for none. */
  embeddingBase: string({ maxLength: 500, pattern: '^(https?://[^\\s]+)?$' }),
  embeddingModel: string({ maxLength: 200 }),
  /** Longest wait for a question's vector, ms (then the lexical channel answers alone). */
  embeddingTimeoutMs: Type.Integer({ minimum: 50, maximum: 10_000 }),
};

export const RobotPatchBody = Type.Object({
  name: Type.Optional(text(LIMITS.robotNameMax)),
  // A setting given as null goes back to its default.
  settings: Type.Optional(
    Type.Partial(
      Type.Object(
        Object.fromEntries(
          Object.entries(ROBOT_SETTINGS).map(([key, schema]) => [key, orDefault(schema)]),
        ) as {
          [K in keyof typeof ROBOT_SETTINGS]: TUnsafe<Static<(typeof ROBOT_SETTINGS)[K]> | null>;
        },
      ),
    ),
  ),
});

/** `PUT R/embedding/key`: the provider's API key (null: none). Never returned by any route. */
export const EmbeddingKeyBody = Type.Object({
  key: Type.Union([string({ maxLength: 500 }), Type.Null()]),
});

/**
 * `POST R/embedding/test`: tries a provider with one text (the form's values, before they are
 * saved). A test without a key uses the robot's stored one.
 */
export const EmbeddingTestBody = Type.Object({
  api: ROBOT_SETTINGS.embeddingApi,
  base: string({ minLength: 1, maxLength: 500, pattern: '^https?://[^\\s]+$' }),
  model: ROBOT_SETTINGS.embeddingModel,
  apiKey: Type.Optional(string({ maxLength: 500 })),
});

export const TryBody = Type.Object({
  question: text(LIMITS.askQuestionMax),
  /** Ask as of this time (ISO 8601 with an offset): which rules are in their window then. */
  asOf: Type.Optional(string({ pattern: ISO_WITH_OFFSET })),
  /** The try pane's conversation (a menu shown to it is followed up), `editor` by default. */
  userId: Type.Optional(text(LIMITS.askUserIdMax)),
  /** Ask the draft (the default) or the published version (docs/publishing.md). */
  edition: Type.Optional(
    Type.Unsafe<'draft' | 'published'>({ type: 'string', enum: ['draft', 'published'] }),
  ),
});

export const TrashQuery = Type.Object({ limit: Type.Optional(decimal) });

export const RuleQueryString = Type.Object({
  offset: Type.Optional(decimal),
  limit: Type.Optional(decimal),
  q: Type.Optional(string({ maxLength: 200 })),
  active: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
  state: Type.Optional(literalUnion(RULE_STATES)),
  category: Type.Optional(ruleFields.ruleCategoryId),
  conflicts: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
  sort: Type.Optional(literalUnion(RULE_SORT_KEYS)),
  dir: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
});

/** Signing in to a team server's editor: loose, so that a malformed name fails like a wrong one. */
export const SignInBody = Type.Object({
  username: string({ minLength: 1, maxLength: 100 }),
  password: string({ minLength: 1, maxLength: 100 }),
  tenantId: Type.Optional(Type.Integer({ minimum: 1 })),
});
