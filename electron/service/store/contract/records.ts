/**
 * The records the domain reads from and writes to a store: plain data, the same whatever store
 * holds them (sql.js on a laptop, PostgreSQL on a team server).
 * @module
 */

/** A robot is named by its tenant and its id within the tenant. */
export interface RobotKey {
  readonly tenantId: number;
  readonly robotId: string;
}

import type { MatchPolicy } from '../../matching/types';

export type { MatchPolicy } from '../../matching/types';

/** One numbered entry of a rule's menu: the text shown and the rule it leads to. */
export interface MenuEntry {
  ruleId: string;
  text: string;
}

/** What an editor or an import sets on a rule. */
export interface RuleContent {
  ruleName: string;
  /** The key under which names are unique in a robot (the domain decides it: the trimmed name). */
  nameKey: string;
  categoryId: string;
  active: boolean;
  allowSimGen: boolean | null;
  /** ISO 8601 with an offset, or null (open on that side). */
  effectBegin: string | null;
  effectEnd: string | null;
  questions: string[];
  answer: string;
  /** Absent: `similarity`. */
  matchPolicy?: MatchPolicy;
  /** The rule is not answered when the question contains one of them. Absent: none. */
  negativeKeywords?: string[];
  /** Entries of the menu the answer introduces; absent or null: a plain answer. */
  menu?: MenuEntry[] | null;
}

/** A rule to insert. Its creation position (`seq`) is the store's to give. */
export interface NewRule extends RuleContent {
  ruleId: string;
  createdAt: number;
}

/** A rule as stored. Times are ms since the epoch. */
export interface StoredRule extends RuleContent {
  /** Position in the store's creation order: increasing, never reused while the rule exists. */
  seq: number;
  ruleId: string;
  tenantId: number;
  robotId: string;
  answerContentType: string;
  createdAt: number;
  updatedAt: number;
  /**
   * Who changed it last: a signed-in administrator's username, `editor` (the desktop editor),
   * `api` (the openapi); '' when written before this was recorded.
   */
  updatedBy: string;
}

/** What the matcher needs of a stored rule (answers stay in the store). */
export type MatchableRecord = Pick<
  StoredRule,
  | 'ruleId'
  | 'tenantId'
  | 'robotId'
  | 'ruleName'
  | 'questions'
  | 'active'
  | 'effectBegin'
  | 'effectEnd'
  | 'matchPolicy'
  | 'negativeKeywords'
>;

export type RuleSortKey =
  'created' | 'updated' | 'ruleName' | 'category' | 'active' | 'hits' | 'lastHit';

/** A rule's figures from the question log, for sorting by them (rules not listed: never hit). */
export interface RuleHitFigure {
  ruleId: string;
  hits: number;
  /** Epoch milliseconds; null: never hit. */
  lastHit: number | null;
}

/** Whether a rule is answered now: switched on and inside its window, or why not. */
export type RuleState = 'active' | 'inactive' | 'scheduled' | 'expired';

/** The editor's filtered, sorted page of a robot's rules. */
export interface RuleFilter {
  offset: number;
  limit: number;
  /** Substring of the name, a phrasing or the answer, compared as the store's text key. */
  text?: string;
  active?: boolean;
  /** The rules in this state at `now`. */
  state?: RuleState;
  now: number;
  category?: string;
  /** Only these rules (the conflicts filter). */
  ruleIds?: readonly string[];
  sort: RuleSortKey;
  descending: boolean;
  /** For the `hits` and `lastHit` sorts; without it every rule counts as never hit. */
  hitFigures?: readonly RuleHitFigure[];
}

/** Fields of many rules changed at once (bulk actions of the grid). */
export type RuleFieldsPatch = Partial<Pick<RuleContent, 'active' | 'categoryId'>>;

export interface RobotRecord extends RobotKey {
  name: string;
  /** Set while the robot is deleted and restorable (ms since the epoch). */
  deletedAt?: number | null;
  secret: string;
  /** The settings the robot has set, as JSON (the domain reads and checks it). */
  settingsJson: string;
  createdAt: number;
}

export interface TenantRecord {
  tenantId: number;
  /** Set while the tenant is deleted and restorable (ms since the epoch). */
  deletedAt?: number | null;
  phoneNumber: string;
  mail: string;
  company: string;
  createdAt: number;
}

export interface UserRecord {
  userId: string;
  tenantId: number;
  username: string;
  /** The key under which usernames are unique in a tenant (the domain decides it). */
  usernameKey: string;
  role: string;
  createdAt: number;
  updatedAt: number;
}

export interface NewUser extends Omit<UserRecord, 'tenantId' | 'createdAt' | 'updatedAt'> {
  passwordHash: string;
}

/** A rule in the trash: deleted, restorable until it is purged. */
export interface DeletedRule extends StoredRule {
  deletedAt: number;
}

export interface CategoryRecord extends RobotKey {
  /** The store's id, as a string: what rules and the openapi's `ruleCategoryId` carry. */
  categoryId: string;
  name: string;
  /** The key under which names are unique in a robot (the domain decides it). */
  nameKey: string;
  createdAt: number;
  /** Rules filed under it. */
  rules: number;
}

export interface DeletedUser extends UserRecord {
  deletedAt: number;
}

/** What rule analytics shows of a rule besides its figures. */
export interface RuleFacts {
  ruleId: string;
  ruleName: string;
  effectEnd: string | null;
}
