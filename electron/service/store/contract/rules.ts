/**
 * The rules of every robot. Each method is one transaction; writes return what they stored, so
 * that the domain can follow the change (matching index, caches, order) without reading back.
 * Every write records its `actor` as the rules' `updatedBy` (who changed them last; the trash's
 * rows: who deleted them).
 * @module
 */
import type {
  DeletedRule,
  MatchableRecord,
  MenuEntry,
  NewRule,
  RobotKey,
  RuleContent,
  RuleFacts,
  RuleFieldsPatch,
  RuleFilter,
  StoredRule,
} from './records';

export interface RuleRepository {
  find(robot: RobotKey, ruleId: string): Promise<StoredRule | undefined>;
  /** The rules of the robot among `ruleIds`, in any order; unknown ids are left out. */
  findMany(robot: RobotKey, ruleIds: readonly string[]): Promise<StoredRule[]>;
  /** The answer of a rule, whatever its robot (rule ids are unique in a store). */
  answerOf(ruleId: string): Promise<string | undefined>;
  /** Names of the given rules, for explanations; unknown ids are left out. */
  namesOf(ruleIds: readonly string[]): Promise<Map<string, string>>;
  /** Which of `nameKeys` are held by a rule of the robot. */
  takenNameKeys(robot: RobotKey, nameKeys: readonly string[]): Promise<Set<string>>;
  /** The rule holding a name key in the robot, if any. */
  nameHolder(robot: RobotKey, nameKey: string): Promise<string | undefined>;
  /** Whether a rule with this id exists in any robot. */
  idExists(ruleId: string): Promise<boolean>;

  /**
   * Inserts rules after every rule of the store, in the given order (one transaction). Throws
   * `UniqueViolation` for a name or id already held.
   */
  insert(
    robot: RobotKey,
    rules: readonly NewRule[],
    now: number,
    actor: string,
  ): Promise<StoredRule[]>;
  /**
   * Puts deleted rules of the robot back from the trash, each at its old position when that is
   * free, else at the end (the undo of a delete). All or nothing; throws `UniqueViolation` for a
   * name held by a rule made since. Ids not in the robot's trash are skipped.
   */
  restore(
    robot: RobotKey,
    ruleIds: readonly string[],
    now: number,
    actor: string,
  ): Promise<StoredRule[]>;
  /** The robot's trash, most recently deleted first. */
  deleted(robot: RobotKey, limit: number): Promise<DeletedRule[]>;
  /** Deletes for good what was put in the trash before `before`; returns how many. */
  purgeDeleted(before: number): Promise<number>;
  /** Replaces a rule's content; undefined when the rule does not exist. */
  update(
    robot: RobotKey,
    ruleId: string,
    content: RuleContent,
    now: number,
    actor: string,
  ): Promise<StoredRule | undefined>;
  /** Sets fields of many rules of the robot; returns the rules changed (unknown ids skipped). */
  patchMany(
    robot: RobotKey,
    ruleIds: readonly string[],
    patch: RuleFieldsPatch,
    now: number,
    actor: string,
  ): Promise<StoredRule[]>;
  /** Moves rules of the robot to the trash; returns the ones deleted, as they were. */
  remove(
    robot: RobotKey,
    ruleIds: readonly string[],
    now: number,
    actor: string,
  ): Promise<StoredRule[]>;

  /** The robot's rule positions, ascending. */
  seqs(robot: RobotKey): Promise<number[]>;
  /** The robot's highest position, 0 without rules. */
  maxSeq(robot: RobotKey): Promise<number>;
  /**
   * How many writes reached the robot's rules (0: none ever); it changes with every write to
   * them, by any node, and never comes back to a value it had (a saved index's check).
   */
  changeCount(robot: RobotKey): Promise<number>;
  /** Up to `limit` rules of the robot from position `fromSeq` on, in creation order. */
  pageFrom(robot: RobotKey, fromSeq: number, limit: number): Promise<StoredRule[]>;
  /** The editor's filtered and sorted page, with the number of rules the filter matches. */
  query(robot: RobotKey, filter: RuleFilter): Promise<{ rows: StoredRule[]; total: number }>;
  /** Every rule of the robot (or of every robot), as the matcher needs it, in creation order. */
  matchable(robot?: RobotKey): Promise<MatchableRecord[]>;
  /** Every rule of every robot that has a menu, with its entries (loaded once at start). */
  menus(): Promise<{ ruleId: string; menu: MenuEntry[] }[]>;
  /**
   * The menus of those of `ruleIds` (of the robot) that have one: what a team node follows of
   * rules whose index is not in memory. Optional: without it the rules are read whole.
   */
  menusOf?(
    robot: RobotKey,
    ruleIds: readonly string[],
  ): Promise<{ ruleId: string; menu: MenuEntry[] }[]>;
  /** Every rule's id and phrasings, in creation order (duplicate checks). */
  questions(robot: RobotKey): Promise<{ ruleId: string; questions: string[] }[]>;
  /** Every rule's id, name and end of validity, in creation order (analytics: no phrasings read). */
  facts(robot: RobotKey): Promise<RuleFacts[]>;
  /** The number of the robot's rules, and of those whose name has a Han character. */
  languageCounts(robot: RobotKey): Promise<{ rules: number; han: number }>;
}
