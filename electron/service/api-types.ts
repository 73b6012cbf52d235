/**
 * Request and response shapes of the openapi routes, as the interface spells them. Clients (the
 * typed client, tests, the editor) import these types only. Request bodies are their schemas'
 * types (validation/schemas.ts).
 * @module
 */
import type { Static } from '@sinclair/typebox';
import type {
  AddUserBody,
  AskBody,
  RegisterTenantBody,
  RuleInputSchema,
  UpdateUserBody,
} from './validation/schemas';

export type AnswerContentType = 'TEXT' | 'IMAGE' | 'IMAGE_TEXT' | 'AUDIO' | 'MENU';

export interface Envelope<T> {
  code: string;
  msg: string | null;
  data: T;
}

export interface FailureEnvelope {
  code: string;
  msg: string;
  data: null;
  /**
   * On a 400 for a body or query that failed validation: every problem found, one per field,
   * the first of which is `code` and `msg` (docs/api.md, "Envelope").
   */
  errors?: FieldProblem[];
}

export interface FieldProblem {
  /** The field at fault (`questions[1]`), or null for the body as a whole. */
  field: string | null;
  code: string;
  msg: string;
}

export type RegisterTenantRequest = Static<typeof RegisterTenantBody>;

export interface RegisterTenantResult {
  tenantId: number;
}

export type AddUserRequest = Static<typeof AddUserBody>;

/** At least one of the three. */
export type UpdateUserRequest = Static<typeof UpdateUserBody>;

export interface UserResult {
  userId: string;
  username: string;
  /** Always the empty string: passwords are never returned. */
  password: '';
  role: string;
}

export interface RobotResult {
  robotId: string;
  name: string;
  robotSecret: string;
}

export type RuleInput = Static<typeof RuleInputSchema>;

/** A rule as listed (list items) and as created (batch result, where `active` is null). */
export interface RuleListItem {
  ruleId: string;
  ruleName: string;
  ruleCategoryId: string;
  active: boolean | null;
  questions: string[];
  answer: string;
  answerContentType: AnswerContentType;
}

/** The single-rule read adds three fields, `effectBeignDate` spelled as the interface has it. */
export interface RuleDetail extends RuleListItem {
  allowSimGen: boolean | null;
  effectBeignDate: string | null;
  effectEndDate: string | null;
}

export interface BatchFailure {
  index: number;
  ruleName: string;
  code: string;
  msg: string;
}

export interface BatchImportResult {
  failInfo: BatchFailure[];
  succeed: RuleListItem[];
}

export interface RuleList {
  list: RuleListItem[];
  totalCount: number;
}

export type AskRequest = Static<typeof AskBody>;

export interface RecommendItem {
  ruleId: string;
  question: string;
  score: number;
}

/**
 * An entry of a MENU answer: the RECOMMEND item's fields, so that a client reading one reads the
 * other (`question` is the entry's text, `score` always 1: choosing the entry answers that very
 * rule), and its `number` (from 1). The user may send back the number or the text.
 */
export interface MenuItem extends RecommendItem {
  number: number;
}

export interface AskResult {
  answerType: 'BESTMATCH' | 'RECOMMEND' | 'MENU';
  answerContentType: AnswerContentType;
  answer: string;
  score: number;
  /** RECOMMEND: the rules recommended; MENU: the menu's entries; else null. */
  items: RecommendItem[] | null;
  /** `KB` (the knowledge base), `CHAT` (small talk) or `NONE` (the fallback). */
  module: string;
}
