/**
 * The console API: the editor's own routes under `/console/api`, beside the openapi routes.
 * Internal to KB Studio (the openapi routes stay exactly as specified). Every request carries
 * `Authorization: Bearer <token>`, the random per-launch token printed with the editor URL
 * (`/?token=…`). Responses use the openapi envelope: `{ code: "0", msg: "success", data }`, and
 * on failure `{ code, msg, data: null | ConsoleFailureData }` with the status and codes of
 * docs/api.md: `data` names the field at fault (`questions[2]`) and says what failed with its
 * values (`keyword`, `params`), for the editor to say in its own words.
 *
 * On a team server (`npm run serve -- --team`) the token is a signed-in administrator's session
 * instead, and every route keeps to that administrator's tenant (docs/api.md, "Signing in").
 *
 * Routes (`T` = /console/api/tenants/:tenantId, `R` = T/robots/:robotId):
 *   GET    /console/api/sign-in                 → SignInMode (no token needed)
 *   POST   /console/api/sign-in                 SignInRequest → SignInResult (team server)
 *   POST   /console/api/sign-out                → { signedOut: true } (team server)
 *   GET    /console/api/sessions                → { sessions: ConsoleSession[] } (team server)
 *   DELETE /console/api/sessions/:sessionId     → { signedOut: 1 } (team server)
 *   POST   /console/api/sign-out-everywhere     → { signedOut: <count> } (team server)
 *   GET    /console/api/workspace               → ConsoleWorkspace
 *   POST   /console/api/tenants                 RegisterTenantRequest → { tenantId }
 *   POST   T/users                              AddUserRequest → UserResult
 *   PUT    T/users/:userId                      UpdateUserRequest → UserResult
 *   POST   T/robots                             { name } → ConsoleRobot
 *   PATCH  R                                    RobotPatch → ConsoleRobot
 *   POST   R/rotate-secret                      → ConsoleRobot
 *   GET    R/rules?offset&limit&q&active&category&conflicts&sort&dir → RulePage
 *   GET    R/rules/:ruleId                      → ConsoleRule
 *   POST   R/rules                              RuleEdit → ConsoleRule
 *   PATCH  R/rules/:ruleId                      RulePatch → ConsoleRule
 *   POST   R/rules/delete                       { ruleIds } → { deleted }
 *   POST   R/rules/restore                      { rules: ConsoleRule[] } → { restored } (undo of delete)
 *   POST   R/rules/set-active                   { ruleIds, active } → { updated }
 *   POST   R/rules/set-category                 { ruleIds, category } → { updated } ('' = none)
 *   GET    R/rules/duplicates                   → { duplicates: DuplicateQuestion[] }
 *   GET    R/categories                         → { categories: string[] }
 *   POST   R/try                                { question } → TryResult
 *   GET    R/collisions                         → RobotCollisions
 * Excel import does not use the console API: the editor sends batches to the openapi batch route,
 * signed in the browser with the credentials of the workspace.
 * @module
 */
import type { Static } from '@sinclair/typebox';
import type { AskResult, RuleDetail } from './api-types';
import type {
  MenuEntrySchema,
  ROBOT_SETTINGS,
  RULE_SORT_KEYS,
  RULE_STATES,
  RobotPatchBody,
  EmbeddingTestBody,
  RuleEditBody,
  RulePatchBody,
  SignInBody,
} from './validation/console-schemas';

/**
 * How a rule is matched: by the engine's similarity score (the default), only by a phrasing equal
 * to the question after normalisation, or by a phrasing found anywhere in the question.
 */
export type MatchPolicy = 'similarity' | 'exact' | 'contains';

// Request bodies are the schemas' types (validation/console-schemas.ts): a change of a schema
// changes its type, and the routes receive bodies of exactly these types.

/** An entry of a rule's menu: the text shown and the rule it leads to (docs/conversation.md). */
export type MenuEntry = Static<typeof MenuEntrySchema>;

/** One problem of a refused console request, for a program (docs/api.md, "The console API"). */
export interface ConsoleProblem {
  /** The field at fault (`questions[2]`, `settings.margin`); absent for the request as a whole. */
  field?: string;
  /**
   * What failed: an Ajv keyword (`required`, `maxLength`, `pattern`…) or a check of the service
   * (`date`, `date-order`, `not-above`, `range`…); absent when the envelope's code says it all.
   */
  keyword?: string;
  /** Its values: Ajv's params (`{ limit: 200 }`) or the check's (`{ other }`, `{ ruleName }`). */
  params?: Record<string, unknown>;
}

/**
 * `data` of a failed console request (null when it has nothing to add): its first problem, and
 * for a request that failed validation every problem in the order of the envelope's `errors`.
 */
export interface ConsoleFailureData extends ConsoleProblem {
  problems?: ConsoleProblem[];
}

export interface ConsoleCustomer {
  customerId: string;
  adminKey: string;
  adminSecret: string;
}

export interface ConsoleWorkspace {
  /** The service's own address, for API examples (`http://127.0.0.1:8787`). */
  baseUrl: string;
  customer: ConsoleCustomer;
  tenants: ConsoleTenant[];
  /** The administrator signed in, on a team server (absent on the desktop). */
  signedIn?: { username: string; tenantId: number };
}

export interface ConsoleTenant {
  tenantId: number;
  company: string;
  mail: string;
  phoneNumber: string;
  /** ISO 8601. */
  createdAt: string;
  users: ConsoleUser[];
  robots: ConsoleRobot[];
}

export interface ConsoleUser {
  userId: string;
  username: string;
  role: string;
}

/** A robot's settings, each as its schema says (`ROBOT_SETTINGS`, where each is described). */
export type ConsoleRobotSettings = {
  [K in keyof typeof ROBOT_SETTINGS]: Static<(typeof ROBOT_SETTINGS)[K]>;
};

/** `POST /console/api/editor-token`: the editor's new token, the old one no longer accepted. */
export interface EditorTokenResult {
  token: string;
}

/** One intent of the built-in small talk in one language (`GET /console/api/small-talk`). */
export interface SmallTalkIntentView {
  /** `intent.language`: the key of a robot's own answer in `chitChatAnswers`. */
  key: string;
  language: 'zh' | 'en';
  /** A few of its phrasings. */
  examples: string[];
  /** The built-in answer (`{persona}` is the robot's persona name). */
  answer: string;
}

/**
 * The name registration gives a tenant's first robot (id `default`), in each editor language:
 * the editor's, when registered there; English over the openapi, which takes no language.
 */
export const DEFAULT_ROBOT_NAMES: Readonly<Record<'en' | 'zh', string>> = {
  en: 'Default robot',
  zh: '默认机器人',
};

/**
 * Whether a robot still has the name registration gave it, a name nobody chose: the editor
 * shows it in its own language (docs/decisions.md 113). Renamed, it is the administrator's.
 */
export function hasDefaultName(robot: { robotId: string; name: string }): boolean {
  return robot.robotId === 'default' && Object.values(DEFAULT_ROBOT_NAMES).includes(robot.name);
}

export interface ConsoleRobot {
  robotId: string;
  name: string;
  robotSecret: string;
  ruleCount: number;
  settings: ConsoleRobotSettings;
  /** What each setting is when the robot has not set it (in its language). */
  defaults: ConsoleRobotSettings;
  /** Whether the robot's embedding provider has an API key (the key itself is never shown). */
  embeddingKeySet: boolean;
}

/** `settings`: the ones to change; null sends a setting back to its default. */
export type RobotPatch = Static<typeof RobotPatchBody>;

/** Whether a rule is answered now: switched on and inside its window, or why not. */
export type RuleState = (typeof RULE_STATES)[number];

/**
 * A rule as the editor sees it: the single-rule read (`ruleCategoryId` is the category's id, ''
 * for none) plus its category's name, its effective state now, and timestamps (ISO 8601).
 */
export interface ConsoleRule extends RuleDetail {
  categoryName: string;
  state: RuleState;
  /** Position in creation order; `rules/restore` puts a deleted rule back there. */
  seq: number;
  createdAt: string;
  updatedAt: string;
  /**
   * Who changed it last: a signed-in administrator's username (team server), `editor` (the
   * desktop editor), `api` (the openapi); '' when changed before this was recorded.
   * In the trash: who deleted it.
   */
  updatedBy: string;
  matchPolicy: MatchPolicy;
  negativeKeywords: string[];
  /** The menu the answer introduces; null for a plain answer. */
  menu: MenuEntry[] | null;
  /**
   * Only in `GET R/rules` pages, when the question log is on: the rule's hits (openapi questions
   * it answered, chosen recommendations included) in the log kept, and the last one (ISO 8601;
   * null: never hit).
   */
  hits?: number;
  lastHit?: string | null;
}

/**
 * A rule as the editor writes it. Limits are the interface's (ruleName ≤ 200, 1–10 questions of
 * 1–200, answer 1–2000); `ruleCategoryId` is the id of one of the robot's categories ('' = none),
 * or `categoryName` names one (made if new; '' = none; it wins over `ruleCategoryId`); the dates
 * are ISO 8601 with an offset, or null; `matchPolicy` is `similarity` by default; `menu` entries
 * lead to rules of the same robot (1–20), null or [] for a plain answer.
 */
export type RuleEdit = Static<typeof RuleEditBody>;

export type RulePatch = Static<typeof RulePatchBody>;

/** `hits` and `lastHit` sort by the question log's figures (never-hit rules count 0). */
export type RuleSortKey = (typeof RULE_SORT_KEYS)[number];

/**
 * Query of `GET R/rules`; all optional. `q` searches names, questions and answers as the matcher
 * reads text (case, full/half width and Traditional/Simplified Chinese do not matter).
 */
export interface RuleQuery {
  offset?: number;
  /** 1 to 1000, default 100. */
  limit?: number;
  q?: string;
  active?: boolean;
  /** Rules in this effective state now. */
  state?: RuleState;
  category?: string;
  /** Only rules named by the robot's last collision check (`R/collisions`). */
  conflicts?: boolean;
  sort?: RuleSortKey;
  dir?: 'asc' | 'desc';
}

export interface RulePage {
  rows: ConsoleRule[];
  /** Rules matching the query (not only this page). */
  total: number;
}

/** A phrasing (after the matcher's normalisation) found in more than one rule of the robot. */
export interface DuplicateQuestion {
  question: string;
  ruleIds: string[];
}

export interface TryCandidate {
  ruleId: string;
  ruleName: string;
  /** The rule's phrasing that matched best. */
  question: string;
  score: number;
  parts: Record<string, number>;
  /** Found by the rule's policy (`exact`, `contains`) rather than by its score. */
  policy?: MatchPolicy;
  /** For `contains`: the phrasing found in the question. */
  keyword?: string;
  /** With an embedding model: the rule's phrasing nearest the question, and its cosine. */
  nearest?: { question: string; cosine: number };
}

/** Whether the editor is opened by signing in (a team server) or with the per-launch token. */
export interface SignInMode {
  signIn: boolean;
  /** The session limits, in minutes, on a team server. */
  sessionIdleMinutes?: number;
  sessionMaxMinutes?: number;
}

/** `tenantId`: which tenant, when the username and password open accounts in several. */
export type SignInRequest = Static<typeof SignInBody>;

/**
 * Signed in (the token goes where the per-launch token goes), or the username and password open
 * accounts in several tenants: the editor asks which and signs in again with its `tenantId`.
 */
export type SignInResult =
  | {
      status: 'signed-in';
      token: string;
      username: string;
      tenantId: number;
      company: string;
      /** ISO 8601: the session ends then at the latest (it ends sooner when left idle). */
      expiresAt: string;
    }
  | { status: 'choose-tenant'; tenants: { tenantId: number; company: string }[] };

/**
 * One of the signed-in administrator's open sessions (`GET /console/api/sessions`, team server),
 * the newest first; times in ISO 8601. `sessionId` names it for `DELETE …/sessions/:sessionId`.
 */
export interface ConsoleSession {
  sessionId: string;
  /** The session the list was asked with. */
  current: boolean;
  signedInAt: string;
  lastSeenAt: string;
  /** Its absolute limit (it ends sooner when left idle). */
  expiresAt: string;
  /** The client address it was opened from, and the browser's User-Agent. */
  address: string;
  userAgent: string;
}

/** What was deleted and can be restored until `purgeAfter` (ISO 8601 times). */
export interface ConsoleTrash {
  tenants: { tenantId: number; company: string; deletedAt: string; purgeAfter: string }[];
  robots: {
    tenantId: number;
    robotId: string;
    name: string;
    deletedAt: string;
    purgeAfter: string;
  }[];
  users: {
    tenantId: number;
    userId: string;
    username: string;
    deletedAt: string;
    purgeAfter: string;
  }[];
}

/** One of a robot's categories, with the number of rules filed under it. */
export interface ConsoleCategory {
  categoryId: string;
  name: string;
  rules: number;
}

/**
 * How the embedding model took part in an answer (docs/matching.md, "Fusion"):
 *   fused       both channels, the model weighted as the robot's self-test found it worth;
 *   unweighted  the model's self-test found it adds nothing here: the lexical channel decides;
 *   pending     the rules' vectors or the model's calibration are still being made;
 *   timeout, failed, dimension  no vector for the question in time, a failed call, or a vector
 *               of another length than the rules': answered from the lexical channel alone.
 */
export interface SemanticNote {
  state: 'fused' | 'unweighted' | 'pending' | 'timeout' | 'failed' | 'dimension';
  model: string;
  /** Time spent waiting for the question's vector (0 when it was a recent question's). */
  ms: number;
  /** Why there was no vector (timeout, failed, dimension). */
  message?: string;
  /** The fitted weights (fused). */
  weights?: { gap: number; cosine: number; offset: number };
}

/** A robot's embedding model at work (`GET R/embedding`): progress, failures, calibration. */
export interface EmbeddingStatus {
  /** Where the provider comes from. */
  source: 'default' | 'custom';
  api: 'openai' | 'ollama';
  base: string;
  model: string;
  timeoutMs: number;
  /** The model's vector length (0 until the first vector came). */
  dimensions: number;
  /** Distinct texts of the robot's rules (names and phrasings) and how many have their vector. */
  texts: number;
  embedded: number;
  /** Bytes of memory the vectors take. */
  vectorBytes: number;
  /** Failed calls to the provider, by kind, since the service started. */
  failures: { timeout: number; http: number; network: number; shape: number; dimension: number };
  lastFailure: { kind: string; message: string; at: string } | null;
  /** Questions answered with the model's vector, and without (a failure or a timeout). */
  questions: { withVector: number; without: number };
  /**
   * Questions of the robot's traffic the lexical channel answered BESTMATCH, kept as the fusion's
   * examples (at most 1,000, saved across restarts, dropped when their rule is written), and
   * whether enough came for the fit to use them (docs/matching.md, "Learning from traffic").
   */
  examples: { kept: number; warmedUp: boolean };
  /** The draft's fusion as its self-test fitted it (null: not yet). */
  calibration: {
    gap: number;
    cosine: number;
    offset: number;
    probes: number;
    /** Examples from the traffic the fit used. */
    examples: number;
    active: boolean;
    current: boolean;
  } | null;
}

/** `POST R/embedding/test`'s body: the provider to try (the form's values, unsaved). */
export type EmbeddingTestRequest = Static<typeof EmbeddingTestBody>;

/** `POST R/embedding/test`: a provider's answer to one text, or why there was none. */
export type EmbeddingTest =
  | { ok: true; dimensions: number; latencyMs: number }
  | { ok: false; failure: string; message: string; latencyMs: number };

/** A rule in the trash (deleted, restorable for the grace period). */
export interface DeletedConsoleRule extends ConsoleRule {
  /** ISO 8601. */
  deletedAt: string;
}

/** What ask would answer (`result`, exactly), and why (`candidates`). */
export interface TryResult {
  result: AskResult;
  decision: 'bestmatch' | 'recommend' | 'none';
  candidates: TryCandidate[];
  /** Rules left out because the question contains one of their negative keywords. */
  excluded?: { ruleId: string; ruleName: string; keyword: string }[];
  /** The answer is the rule of the menu entry this reply chose. */
  chosen?: { ruleId: string; number: number };
  /** Small talk answered (module CHAT): its intent and the built-in phrasing that matched. */
  smallTalk?: { intent: string; question: string };
  /** The embedding model's channel for this question; absent when the robot has no provider. */
  semantic?: SemanticNote;
}

/**
 * Why two rules collide (docs/matching.md, "The collision report"). The first three are facts,
 * checked by asking as the API asks (the same scoring, policies and the robot's settings, on the
 * draft): `asked-elsewhere`, the phrasing asked gets the other rule's answer (BESTMATCH);
 * `asked-unanswered`, it gets neither rule's (the other rule has the same phrasing, or the own
 * rule's negative keyword leaves it out); `slot-unnamed`, the two rules differ only by the word
 * that tells them apart (a product, a city, a plan) and the question without it gets one of them
 * outright instead of a choice. The last two are risks read from the leave-one-out self-test,
 * not claims about asking the phrasing itself (which gets its own rule): `reads-like-other`, the
 * phrasing reads more like the other rule than like its own rule's other phrasings, so other
 * wordings of it may get the other rule; `near-duplicate`, the two rules are probably the same
 * question.
 */
export type CollisionCause =
  'asked-elsewhere' | 'asked-unanswered' | 'slot-unnamed' | 'reads-like-other' | 'near-duplicate';

/** What was asked to check a finding, and what ask decided. */
export interface CollisionCheckAsked {
  question: string;
  decision: 'bestmatch' | 'recommend' | 'none';
  /** The rule answered (BESTMATCH), else the first candidate; null when there was none. */
  ruleId: string | null;
}

/** One finding of the collision check, between a rule and another. */
export interface CollisionFinding {
  cause: CollisionCause;
  ruleId: string;
  ruleName: string;
  /** The rule's phrasing (or its name), as written. */
  question: string;
  /**
   * The other rule: the one that answers, is offered or reads alike. The rule itself when the
   * finding concerns it alone (its own negative keyword leaves its phrasing unanswered).
   */
  otherRuleId: string;
  otherRuleName: string;
  /** The other rule's phrasing closest to `question` (the same text when they share it). */
  otherQuestion: string;
  /**
   * 0..1. For the checked causes, a score ask gave: the other rule's for `question` (the first
   * candidate's when the finding concerns the rule alone), or for `slot-unnamed` the answer's.
   * For the risks, how alike `question` reads to the other rule: its score for the phrasing
   * asked against the rules without it (1: the same text).
   */
  score: number;
  /** The question asked to check the finding, and the answer (checked causes only). */
  asked?: CollisionCheckAsked;
  /** The own rule's negative keyword that left the rule out (`asked-*`). */
  keyword?: string;
  /** `slot-unnamed`: the word of `question` and the word of `otherQuestion` that differ. */
  words?: [string, string];
}

/** The collision check of a robot's rules (docs/matching.md, "Collision check"). */
export interface RobotCollisions {
  /** Phrasings asked; all of them unless `complete` is false (then an even sample). */
  probed: number;
  complete: boolean;
  /** Checked causes first (in the order of `CollisionCause`), then the risks; by score within. */
  findings: CollisionFinding[];
  /** When the check that found this ran (ISO 8601). */
  checkedAt: string;
  /**
   * True when this is the robot's last check, given again because its rules (the matching
   * index), its decision settings and calibration have not changed since and no rule entered or
   * left its effective window.
   */
  reused: boolean;
}
