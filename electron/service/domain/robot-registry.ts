/**
 * The robots known to the service, in memory: every signed method-2 request needs its robot's
 * secret and every ask its settings and index, so they are not read from the database each time.
 * The registry follows every write made through the robots domain.
 *
 * Between two turns of the event loop every index holds exactly the rules of the database at its
 * last committed seq: domain operations write and then update the index in the same synchronous
 * step. That is what makes an index saved at any moment (on stop) valid for the database at that
 * seq, and only for it. An index whose update failed half-way is marked and never saved.
 * @module
 */
import type { Logger } from '../logger';
import type { CreateRobotIndex, MatchableRule, RobotIndex } from '../matching/types';
import type { Store } from '../storage/database';
import { INDEX_FILE, writeIndexFile } from '../storage/index-file';
import type { IndexFile, RobotIndexToSave } from '../storage/index-file';
import { DEFAULT_ROBOT_SETTINGS, parseStoredSettings } from './robot-settings';
import type { RobotSettings, SynonymGroups } from './robot-settings';
import type { RuleOrder } from './rule-order';
import { ruleRowToMatchable } from './rule-rows';
import type { RuleRow } from './rule-rows';

export interface RobotEntry {
  tenantId: number;
  robotId: string;
  name: string;
  secret: string;
  /** The settings in force (defaults for keys the robot never set). */
  settings: RobotSettings;
  /** The keys the robot has set, as stored. */
  storedSettings: Partial<RobotSettings>;
  index: RobotIndex;
}

/** How built indexes are saved and opened again (the engine's `saveRobotIndex`/`loadRobotIndex`). */
export interface IndexCodec {
  /** Streams the index's bytes to `sink` (chunks valid only during the call). */
  write(index: RobotIndex, sink: (chunk: Uint8Array) => void): number;
  /** Null: saved by an engine that indexes differently (rebuild). Throws on damaged bytes. */
  load(bytes: Uint8Array<ArrayBuffer>): RobotIndex | null;
}

export interface RobotRegistryOptions {
  createIndex: CreateRobotIndex;
  /** Null: indexes are always built from the database at start and never saved. */
  codec?: IndexCodec | null;
  logger?: Logger;
}

export interface IndexSavePlan {
  seq: number;
  robots: RobotIndexToSave[];
}

/** What the caller found in the data directory: the saved indexes, none, or a damaged file. */
export type SavedIndexes = { file: IndexFile | null } | { error: Error };

const key = (tenantId: number, robotId: string) => `${tenantId}/${robotId}`;

const sameGroups = (a: SynonymGroups, b: SynonymGroups): boolean =>
  JSON.stringify(a) === JSON.stringify(b);

/** Answers of recently answered rules kept in memory (by count and by total characters). */
const ANSWER_CACHE_RULES = 2048;
const ANSWER_CACHE_CHARS = 2_000_000;

const MATCHABLE_COLUMNS =
  'rule_id, tenant_id, robot_id, rule_name, questions, active, effect_begin, effect_end';

/** The robot's highest rule_seq, 0 without rules (one seek down the (tenant, robot, seq) index). */
function maxRuleSeq(store: Store, tenantId: number, robotId: string): number {
  const row = store.get<{ last: number | null }>(
    'SELECT MAX(rule_seq) AS last FROM rules WHERE tenant_id = ? AND robot_id = ?',
    [tenantId, robotId],
  );
  return Number(row?.last ?? 0);
}

export class RobotRegistry {
  private readonly robots = new Map<string, RobotEntry>();
  /** Creation order of each robot's rules, once a list has needed it. */
  private readonly orders = new Map<string, RuleOrder>();
  /** Robots whose index may differ from the database (an update failed): never saved. */
  private readonly tainted = new Set<string>();
  /** ruleId → answer of recently answered rules, oldest first (a Map keeps insertion order). */
  private readonly answers = new Map<string, string>();
  private answerChars = 0;
  private readonly createIndex: CreateRobotIndex;
  private readonly codec: IndexCodec | null;
  private readonly logger: Logger | undefined;

  constructor(options: RobotRegistryOptions) {
    this.createIndex = options.createIndex;
    this.codec = options.codec ?? null;
    this.logger = options.logger;
  }

  /**
   * Loads every robot, and its index: the one saved on the last clean stop (`saved`, read by the
   * caller) when it was taken at exactly the database's seq and holds as many rules as the
   * database, else built from the database.
   */
  load(store: Store, saved: SavedIndexes = { file: null }): { opened: number; built: number } {
    this.robots.clear();
    this.orders.clear();
    this.tainted.clear();
    const rows = store.all<{
      tenant_id: number;
      robot_id: string;
      name: string;
      secret: string;
      settings: string;
    }>('SELECT tenant_id, robot_id, name, secret, settings FROM robots');
    for (const row of rows)
      this.put(row.tenant_id, row.robot_id, row.name, row.secret, row.settings);

    const opened = this.codec ? this.openSaved(store, saved) : new Set<string>();
    const toBuild = [...this.robots.keys()].filter((k) => !opened.has(k));
    if (opened.size > 0) {
      this.logger?.info(
        `opened the saved matching index of ${opened.size} robot(s)` +
          (toBuild.length > 0 ? `; building ${toBuild.length} from the database` : ''),
      );
    }
    const counts = { opened: opened.size, built: toBuild.length };
    if (toBuild.length === 0) return counts;
    if (toBuild.length === this.robots.size) {
      const rules = store.all<RuleRow>(`SELECT ${MATCHABLE_COLUMNS} FROM rules ORDER BY rule_seq`);
      for (const rule of rules)
        this.get(rule.tenant_id, rule.robot_id)?.index.upsert(ruleRowToMatchable(rule));
      return counts;
    }
    for (const k of toBuild) {
      const robot = this.robots.get(k) as RobotEntry;
      const rules = store.all<RuleRow>(
        `SELECT ${MATCHABLE_COLUMNS} FROM rules WHERE tenant_id = ? AND robot_id = ? ORDER BY rule_seq`,
        [robot.tenantId, robot.robotId],
      );
      for (const rule of rules) robot.index.upsert(ruleRowToMatchable(rule));
    }
    return counts;
  }

  /** Opens the saved indexes that fit the database; returns the robots they were opened for. */
  private openSaved(store: Store, saved: SavedIndexes): Set<string> {
    const opened = new Set<string>();
    const codec = this.codec as IndexCodec;
    const log = this.logger;
    if ('error' in saved) {
      log?.warn(`ignoring the saved matching index: ${saved.error.message}; rebuilding`);
      return opened;
    }
    const { file } = saved;
    if (!file) return opened;
    if (file.seq !== store.lastSeq) {
      log?.info(
        `the saved matching index is of seq ${file.seq}, the database of seq ${store.lastSeq} ` +
          '(the last stop was not clean): rebuilding',
      );
      return opened;
    }
    if (file.robots.some((saved) => !this.robots.has(key(saved.tenantId, saved.robotId)))) {
      log?.warn(`${INDEX_FILE} names robots the database does not have: rebuilding`);
      return opened;
    }
    for (const saved of file.robots) {
      const k = key(saved.tenantId, saved.robotId);
      const maxSeq = maxRuleSeq(store, saved.tenantId, saved.robotId);
      if (saved.maxSeq !== maxSeq) {
        log?.warn(
          `the saved index of robot ${k} ends at rule ${saved.maxSeq}, the database at ${maxSeq}: rebuilding it`,
        );
        continue;
      }
      let index: RobotIndex | null;
      try {
        index = codec.load(saved.bytes);
      } catch (error) {
        log?.warn(
          `the saved index of robot ${k} is damaged (${(error as Error).message}): rebuilding it`,
        );
        continue;
      }
      if (index === null) {
        log?.info(
          `the saved index of robot ${k} was made by another matching engine: rebuilding it`,
        );
        continue;
      }
      if (index.size !== saved.rules) {
        log?.warn(
          `the saved index of robot ${k} holds ${index.size} rules, not ${saved.rules}: rebuilding it`,
        );
        continue;
      }
      const robot = this.robots.get(k) as RobotEntry;
      robot.index = index;
      // Saved with the synonyms of its time; a robot whose synonyms changed since is re-indexed.
      this.applySynonyms(robot);
      opened.add(k);
    }
    return opened;
  }

  /**
   * What a save of the indexes needs from the database (its seq, each robot's highest rule_seq),
   * read now, so that the indexes can be written after the database is closed. The indexes must
   * not change in between: the caller has stopped every write.
   */
  planIndexSave(store: Store): IndexSavePlan | null {
    const codec = this.codec;
    if (!codec) return null;
    const robots: RobotIndexToSave[] = [];
    for (const [k, robot] of this.robots) {
      if (this.tainted.has(k)) {
        this.logger?.warn(`the index of robot ${k} missed an update: it is not saved`);
        continue;
      }
      robots.push({
        tenantId: robot.tenantId,
        robotId: robot.robotId,
        rules: robot.index.size,
        maxSeq: maxRuleSeq(store, robot.tenantId, robot.robotId),
        write: (sink) => codec.write(robot.index, sink),
      });
    }
    return { seq: store.lastSeq, robots };
  }

  /**
   * Saves the indexes of a plan for the next start. Failures are logged: the next start
   * rebuilds. Synchronous, so the indexes cannot change while they are saved.
   */
  saveIndexes(plan: IndexSavePlan | null, dataDir: string): void {
    if (!plan) return;
    try {
      writeIndexFile(dataDir, plan.seq, plan.robots);
    } catch (error) {
      this.logger?.error(
        'could not save the matching indexes; the next start rebuilds them',
        error,
      );
    }
  }

  get(tenantId: number, robotId: string): RobotEntry | undefined {
    return this.robots.get(key(tenantId, robotId));
  }

  listForTenant(tenantId: number): RobotEntry[] {
    return [...this.robots.values()].filter((robot) => robot.tenantId === tenantId);
  }

  put(
    tenantId: number,
    robotId: string,
    name: string,
    secret: string,
    settingsJson: string,
  ): RobotEntry {
    const existing = this.get(tenantId, robotId);
    const storedSettings = parseStoredSettings(settingsJson);
    const entry: RobotEntry = {
      tenantId,
      robotId,
      name,
      secret,
      settings: { ...DEFAULT_ROBOT_SETTINGS, ...storedSettings },
      storedSettings,
      index: existing?.index ?? this.createIndex(),
    };
    this.robots.set(key(tenantId, robotId), entry);
    this.applySynonyms(entry);
    return entry;
  }

  /** Gives the robot's index the robot's synonyms if it has others (this re-indexes it). */
  private applySynonyms(robot: RobotEntry): void {
    const { index } = robot;
    if (!index.setSynonyms || sameGroups(index.synonyms ?? [], robot.settings.synonyms)) return;
    const groups = robot.settings.synonyms;
    this.updateIndex(robot, (target) => target.setSynonyms?.(groups));
  }

  /**
   * Runs `update` on the robot's index after a committed write. If it throws, the index may no
   * longer match the database: it is marked so that it is never saved, and the error goes on.
   */
  updateIndex(robot: RobotEntry, update: (index: RobotIndex) => void): void {
    try {
      update(robot.index);
    } catch (error) {
      this.tainted.add(key(robot.tenantId, robot.robotId));
      throw error;
    }
  }

  upsertRules(robot: RobotEntry, rules: readonly MatchableRule[]): void {
    this.updateIndex(robot, (index) => {
      for (const rule of rules) index.upsert(rule);
    });
  }

  /**
   * The answer of a rule, from memory when it was answered recently, else read by `read` (the
   * database) and remembered. Rule ids are unique across robots. Every write that may change a
   * rule's answer or remove the rule calls `forgetAnswers` for it.
   */
  answerOf(ruleId: string, read: () => string | undefined): string | undefined {
    const known = this.answers.get(ruleId);
    if (known !== undefined) {
      // Most recently used last.
      this.answers.delete(ruleId);
      this.answers.set(ruleId, known);
      return known;
    }
    const answer = read();
    if (answer === undefined) return undefined;
    this.answers.set(ruleId, answer);
    this.answerChars += answer.length;
    while (this.answers.size > ANSWER_CACHE_RULES || this.answerChars > ANSWER_CACHE_CHARS) {
      const [oldest, text] = this.answers.entries().next().value as [string, string];
      this.answers.delete(oldest);
      this.answerChars -= text.length;
    }
    return answer;
  }

  forgetAnswers(ruleIds: Iterable<string>): void {
    for (const ruleId of ruleIds) {
      const text = this.answers.get(ruleId);
      if (text === undefined) continue;
      this.answers.delete(ruleId);
      this.answerChars -= text.length;
    }
  }

  /** The robot's rule order if a list has built it (writes keep it in step), else undefined. */
  ruleOrder(robot: RobotEntry): RuleOrder | undefined {
    return this.orders.get(key(robot.tenantId, robot.robotId));
  }

  setRuleOrder(robot: RobotEntry, order: RuleOrder | undefined): void {
    const k = key(robot.tenantId, robot.robotId);
    if (order) this.orders.set(k, order);
    else this.orders.delete(k);
  }
}
