/**
 * One robot's figures as the embedded store keeps them in memory: per UTC day, questions per
 * hour by outcome, rule hits, confusable pairs, the most asked and most missed questions and the
 * inbox's questions; and over every day kept, the rules' and the inbox's totals, which the reads
 * answer from in milliseconds. Entries' figures are added as asks are recorded (and taken back
 * when their lines could not be written); figure-files.ts saves and loads them.
 *
 * Bounded as a busy robot's traffic grows: a day counts at most TALLY_MAX distinct questions (and
 * pairs) for its tops, then keeps its most frequent half; a day older than yesterday is closed:
 * it keeps its TOP_KEPT most frequent questions and pairs, its inbox questions leave memory (its
 * file holds them; the totals have them), at most CLOSED_INBOX_MAX of them, most frequent first.
 * @module
 */
import type {
  DayNumber,
  EntryFigures,
  HourRow,
  InboxGroupRow,
  RuleRow,
  TextCount,
} from '../../contract/question-log';
import { INBOX_RULES_MAX, OUTCOMES } from '../../contract/question-log';
import { RankedTop } from './ranked-top';

/** Distinct questions (or pairs) a day counts for its tops before keeping its most frequent half. */
export const TALLY_MAX = 20_000;
/** Questions and pairs a closed day keeps for the tops. */
export const TOP_KEPT = 200;
/** Distinct inbox questions a day keeps before dropping its least frequent half. */
export const INBOX_DAY_MAX = 50_000;
/** Inbox questions a closed day keeps. */
export const CLOSED_INBOX_MAX = 20_000;
/** Items a read goes through between two turns of the event loop (a few milliseconds' worth). */
const READ_SLICE = 4096;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
/** The event loop time the inbox builds its groups' rows before the asks waiting come (ms). */
const ROW_SLICE_MS = 8;
/** The inbox's groups whose rows are built as the log opens: the editor's first page. */
const ROWS_AT_OPEN = 50;

/** Examples shown per inbox group. */
const EXAMPLES_MAX = 10;
/** Inbox groups kept ranked (twice the largest page the inbox is asked for). */
const GROUPS_RANKED = 2000;
/** Rules kept ranked by hits. */
const RULES_RANKED = 200;
const HOURS = 24;
const KINDS = OUTCOMES.length;

export interface RuleCounts {
  hits: number;
  chosen: number;
  fromMenu: number;
  recommended: number;
  /** 0: never hit. */
  lastHit: number;
}

export interface InboxCounts {
  group: string;
  text: string;
  fallback: number;
  recommended: number;
  lowScore: number;
  lastAt: number;
  chosen: Map<string, number> | null;
  evidence: Map<string, number> | null;
}

/**
 * A group of the inbox summed over its questions as rows change, so that a page of the inbox
 * reads its groups' figures rather than every question of each (decision 129). Counts and
 * choices are exact at all times (the ranking reads them); the rest is kept as rows grow, and a
 * group whose rows were taken from (forgotten, pruned, an entry taken back) is summed again from
 * its questions at its next read.
 */
interface GroupFigures {
  count: number;
  /** Its questions users chose from. */
  withChoice: number;
  outcomes: { fallback: number; recommended: number; lowScore: number };
  lastAt: number;
  chosen: Map<string, number> | null;
  evidence: Map<string, number> | null;
  /** Its most frequent questions, most first (all of them when fewer than EXAMPLES_MAX). */
  texts: TextCount[];
  /** Rows were taken from: sum it again before reading it. */
  stale: boolean;
  /**
   * Its row as the inbox reads it, kept until its figures change (decision 175): ranking its
   * rules (`byCount`) walks every rule its questions were recommended with, and the first inbox
   * read after a start built fifty such rows in one hold (~60 ms of CPU at a million asks).
   */
  row: InboxGroupRow | null;
}

const newGroup = (): GroupFigures => ({
  count: 0,
  withChoice: 0,
  outcomes: { fallback: 0, recommended: 0, lowScore: 0 },
  lastAt: 0,
  chosen: null,
  evidence: null,
  texts: [],
  stale: false,
  row: null,
});

const textOrder = (a: TextCount, b: TextCount) => b.count - a.count || (a.key < b.key ? -1 : 1);

/** A question of the group now asked `count` times, among its examples if it is of the most. */
function placeText(texts: TextCount[], key: string, text: string, count: number): void {
  const at = texts.findIndex((t) => t.key === key);
  if (at >= 0) texts.splice(at, 1);
  const item = { key, text, count };
  const worst = texts[texts.length - 1];
  if (at < 0 && texts.length >= EXAMPLES_MAX && worst && textOrder(item, worst) >= 0) return;
  let i = texts.length;
  while (i > 0 && textOrder(item, texts[i - 1] as TextCount) < 0) i--;
  texts.splice(i, 0, item);
  if (texts.length > EXAMPLES_MAX) texts.pop();
}

export interface Tally {
  text: string;
  count: number;
}

export const occurrences = (row: InboxCounts): number =>
  row.fallback + row.recommended + row.lowScore;

/** The figures of one day. */
export class DayTables {
  readonly hours = new Float64Array(HOURS * KINDS);
  readonly rules = new Map<string, RuleCounts>();
  readonly pairs = new Map<string, number>();
  readonly questions = new Map<string, Tally>();
  readonly missed = new Map<string, Tally>();
  /**
   * Its most asked questions, most missed and most frequent pairs, kept ordered as they are
   * counted (decision 129): the dashboard and analytics read the first TOP_KEPT of a busy day
   * rather than its tens of thousands of questions.
   */
  readonly ranked = {
    questions: rankingOf(this.questions, (tally: Tally) => tally.count),
    missed: rankingOf(this.missed, (tally: Tally) => tally.count),
    pairs: rankingOf(this.pairs, (count: number) => count),
  };
  /**
   * The inbox's questions of the day (open days); a closed day's are in its file and the totals,
   * and `late` holds those added since it closed.
   */
  inbox: Map<string, InboxCounts> | null = new Map();
  late = new Map<string, InboxCounts>();
  /** Entries added since the day was last saved. */
  unsaved = 0;

  constructor(readonly day: DayNumber) {}

  get closed(): boolean {
    return this.inbox === null;
  }

  /** Where inbox rows added now go. */
  get inboxRows(): Map<string, InboxCounts> {
    return this.inbox ?? this.late;
  }
}

/** A map's keys by count, most first, then by key. */
function rankingOf<V>(map: Map<string, V>, count: (value: V) => number): RankedTop<number> {
  return new RankedTop<number>(
    {
      valueOf: (key) => {
        const value = map.get(key);
        return value === undefined ? undefined : count(value);
      },
      order: (a, b) => b.value - a.value || (a.key < b.key ? -1 : 1),
      keys: () => map.keys(),
    },
    TOP_KEPT,
  );
}

function addTally(
  map: Map<string, Tally>,
  ranking: RankedTop<number>,
  key: string,
  text: string,
  sign: number,
): void {
  ranking.touch(key);
  const tally = map.get(key);
  if (tally) {
    tally.count += sign;
    if (tally.count <= 0) map.delete(key);
  } else if (sign > 0) {
    map.set(key, { text, count: 1 });
    if (map.size > TALLY_MAX) {
      keepMostFrequent(map, TALLY_MAX / 2, (t) => t.count);
      ranking.reset();
    }
  }
}

/** Keeps the `keep` entries of `map` with the highest weight (ties: the first met). */
export function keepMostFrequent<V>(
  map: Map<string, V>,
  keep: number,
  weight: (value: V) => number,
): [string, V][] {
  if (map.size <= keep) return [];
  const sorted = [...map].sort((a, b) => weight(b[1]) - weight(a[1]));
  const dropped = sorted.slice(keep);
  for (const [key] of dropped) map.delete(key);
  return dropped;
}

function addCount(map: Map<string, number>, key: string, by: number): void {
  const count = (map.get(key) ?? 0) + by;
  if (count > 0) map.set(key, count);
  else map.delete(key);
}

function mergeCounts(
  into: Map<string, number> | null,
  from: Map<string, number> | null,
  sign: number,
): Map<string, number> | null {
  if (from === null || from.size === 0) return into;
  const target = into ?? new Map<string, number>();
  for (const [key, count] of from) addCount(target, key, sign * count);
  return target.size > 0 ? target : null;
}

/** `into` += sign × `row` (its group and text kept when set). */
export function addInboxRow(
  into: Map<string, InboxCounts>,
  key: string,
  row: InboxCounts,
  sign: number,
): InboxCounts | undefined {
  let target = into.get(key);
  if (!target) {
    if (sign < 0) return undefined;
    target = {
      group: row.group,
      text: row.text,
      fallback: 0,
      recommended: 0,
      lowScore: 0,
      lastAt: 0,
      chosen: null,
      evidence: null,
    };
    into.set(key, target);
  }
  target.fallback += sign * row.fallback;
  target.recommended += sign * row.recommended;
  target.lowScore += sign * row.lowScore;
  if (sign > 0) target.lastAt = Math.max(target.lastAt, row.lastAt);
  target.chosen = mergeCounts(target.chosen, row.chosen, sign);
  target.evidence = mergeCounts(target.evidence, row.evidence, sign);
  if (occurrences(target) <= 0 && target.chosen === null) into.delete(key);
  return target;
}

/** The inbox row an entry's figures add (one occurrence). */
function inboxRowOf(
  figures: EntryFigures,
  inbox: NonNullable<EntryFigures['inbox']>,
): { key: string; row: InboxCounts } {
  return {
    key: inbox.key,
    row: {
      group: inbox.group,
      text: inbox.text,
      fallback: inbox.kind === 'fallback' ? 1 : 0,
      recommended: inbox.kind === 'recommended' ? 1 : 0,
      lowScore: inbox.kind === 'lowScore' ? 1 : 0,
      lastAt: figures.at,
      chosen: null,
      evidence: inbox.evidence === null ? null : new Map([[inbox.evidence, 1]]),
    },
  };
}

/** The inbox row a choice from a RECOMMEND adds. */
function choiceRowOf(choice: NonNullable<EntryFigures['choice']>): {
  key: string;
  row: InboxCounts;
} {
  return {
    key: choice.key,
    row: {
      group: choice.group,
      text: choice.text,
      fallback: 0,
      recommended: 0,
      lowScore: 0,
      lastAt: 0,
      chosen: new Map([[choice.ruleId, 1]]),
      evidence: null,
    },
  };
}

/**
 * The `limit` best of many items, best first, without sorting them all: a read of a busy day's
 * tens of thousands of questions keeps a small sorted list and compares most items with its
 * worst only (a full sort of them cost a dashboard seconds on a loaded machine).
 */
export class BestOf<T> {
  private readonly kept: T[] = [];

  constructor(
    private readonly limit: number,
    /** Negative when `a` is better than `b`. */
    private readonly order: (a: T, b: T) => number,
  ) {}

  /** Whether an item would be kept (test before making it). */
  wants(item: T): boolean {
    const worst = this.kept[this.kept.length - 1];
    return this.kept.length < this.limit || (worst !== undefined && this.order(item, worst) < 0);
  }

  /** Whether `limit` items are kept: an item worse than `worst` is not wanted. */
  get full(): boolean {
    return this.kept.length >= this.limit;
  }

  /** The worst item kept. */
  get worst(): T | undefined {
    return this.kept[this.kept.length - 1];
  }

  add(item: T): void {
    if (this.limit <= 0 || !this.wants(item)) return;
    // After the kept items it is not better than (equals stay in the order they came).
    let low = 0;
    let high = this.kept.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      const other = this.kept[mid];
      if (other !== undefined && this.order(item, other) < 0) high = mid;
      else low = mid + 1;
    }
    this.kept.splice(low, 0, item);
    if (this.kept.length > this.limit) this.kept.pop();
  }

  get items(): T[] {
    return this.kept;
  }
}

/** A robot's figures: its days, and the totals over them. */
export class KeptFigures {
  readonly days = new Map<DayNumber, DayTables>();
  readonly rules = new Map<string, RuleCounts>();
  readonly inbox = new Map<string, InboxCounts>();
  /** The inbox's questions of each group. */
  private readonly members = new Map<string, Set<string>>();
  /**
   * Each group's figures, kept as rows change: the inbox ranks its groups from these without
   * summing their questions (summing every question of every group held a read for a second at
   * a million asks), and reads a page of them without summing its groups' questions.
   */
  private readonly groupTotals = new Map<string, GroupFigures>();
  /** The groups as the inbox ranks them: with a choice first, most asked, then by id. */
  private readonly groupRanking = new RankedTop<{ count: number; withChoice: boolean }>(
    {
      valueOf: (group) => {
        const totals = this.groupTotals.get(group);
        return totals && totals.count > 0
          ? { count: totals.count, withChoice: totals.withChoice > 0 }
          : undefined;
      },
      order: (a, b) =>
        Number(b.value.withChoice) - Number(a.value.withChoice) ||
        b.value.count - a.value.count ||
        (a.key < b.key ? -1 : 1),
      keys: () => this.groupTotals.keys(),
    },
    GROUPS_RANKED,
  );
  /** The rules by hits, most first, then by id. */
  private readonly ruleRanking = new RankedTop<number>(
    {
      valueOf: (ruleId) => {
        const hits = this.rules.get(ruleId)?.hits ?? 0;
        return hits > 0 ? hits : undefined;
      },
      order: (a, b) => b.value - a.value || (a.key < b.key ? -1 : 1),
      keys: () => this.rules.keys(),
    },
    RULES_RANKED,
  );

  /**
   * Ranks once what the reads rank: every inbox group, every rule, each busy day's questions,
   * misses and pairs, a slice a turn (decision 169). Done as the log opens, so that the first
   * inbox or dashboard read after a start places only what changed since, rather than walking a
   * million asks' groups while the editor waits.
   */
  async rank(): Promise<void> {
    // The inbox's first page, its rows built and kept (decision 175).
    await this.inboxGroups(ROWS_AT_OPEN);
    await this.ruleRanking.top(1);
    for (const tables of [...this.days.values()]) {
      const { questions, missed, pairs } = tables.ranked;
      if (tables.questions.size > TOP_KEPT) await questions.top(1);
      if (tables.missed.size > TOP_KEPT) await missed.top(1);
      if (tables.pairs.size > TOP_KEPT) await pairs.top(1);
    }
  }

  dayOf(day: DayNumber): DayTables {
    let tables = this.days.get(day);
    if (!tables) {
      tables = new DayTables(day);
      this.days.set(day, tables);
    }
    return tables;
  }

  /** Adds (sign 1) or takes back (sign -1) what an entry's figures count. */
  apply(figures: EntryFigures, sign: 1 | -1): void {
    const tables = this.dayOf(figures.day);
    tables.unsaved += 1;
    const slot = figures.hour * KINDS + (OUTCOME_INDEX.get(figures.outcome) ?? 0);
    tables.hours[slot] = (tables.hours[slot] ?? 0) + sign;
    const { hit } = figures;
    if (hit) {
      addHit(tables.rules, hit, figures.at, sign);
      addHit(this.rules, hit, figures.at, sign);
      this.ruleRanking.touch(hit.ruleId);
    }
    for (const ruleId of figures.recommended) {
      addRecommended(tables.rules, ruleId, sign);
      addRecommended(this.rules, ruleId, sign);
    }
    if (figures.pair) {
      const pair = `${figures.pair[0]}\u0000${figures.pair[1]}`;
      addCount(tables.pairs, pair, sign);
      tables.ranked.pairs.touch(pair);
      if (tables.pairs.size > TALLY_MAX) {
        keepMostFrequent(tables.pairs, TALLY_MAX / 2, (n) => n);
        tables.ranked.pairs.reset();
      }
    }
    const { question } = figures;
    if (question) {
      addTally(tables.questions, tables.ranked.questions, question.key, question.text, sign);
      if (figures.missed) {
        addTally(tables.missed, tables.ranked.missed, question.key, question.text, sign);
      }
    }
    if (figures.inbox) this.addInbox(tables, inboxRowOf(figures, figures.inbox), sign);
    if (figures.choice) this.addInbox(tables, choiceRowOf(figures.choice), sign);
    const rows = tables.inbox;
    if (rows && rows.size > INBOX_DAY_MAX) this.pruneInbox(rows, INBOX_DAY_MAX / 2);
  }

  private addInbox(
    tables: DayTables,
    added: { key: string; row: InboxCounts },
    sign: number,
  ): void {
    addInboxRow(tables.inboxRows, added.key, added.row, sign);
    this.addToTotals(added.key, added.row, sign);
  }

  /** Adds (or takes back) a day's inbox row to the totals. */
  addToTotals(key: string, row: InboxCounts, sign: number): void {
    const before = this.inbox.get(key);
    const group = before?.group ?? row.group;
    const countBefore = before ? occurrences(before) : 0;
    const choiceBefore = before?.chosen ? 1 : 0;
    const total = addInboxRow(this.inbox, key, row, sign);
    const after = this.inbox.get(key);
    this.addToGroup(
      group,
      (after ? occurrences(after) : 0) - countBefore,
      (after?.chosen ? 1 : 0) - choiceBefore,
    );
    const figures = this.groupTotals.get(group);
    if (figures && total) {
      figures.row = null;
      if (sign < 0) figures.stale = true;
      else if (!figures.stale) {
        figures.outcomes.fallback += row.fallback;
        figures.outcomes.recommended += row.recommended;
        figures.outcomes.lowScore += row.lowScore;
        figures.lastAt = Math.max(figures.lastAt, row.lastAt);
        figures.chosen = mergeCounts(figures.chosen, row.chosen, 1);
        figures.evidence = mergeCounts(figures.evidence, row.evidence, 1);
        if (after && occurrences(after) > 0) {
          placeText(figures.texts, key, after.text, occurrences(after));
        }
      }
    }
    if (total && this.inbox.has(key)) {
      let members = this.members.get(total.group);
      if (!members) {
        members = new Set();
        this.members.set(total.group, members);
      }
      members.add(key);
    } else if (!this.inbox.has(key)) {
      const group = total?.group ?? row.group;
      const members = this.members.get(group);
      members?.delete(key);
      if (members?.size === 0) this.members.delete(group);
    }
  }

  private addToGroup(group: string, count: number, withChoice: number): void {
    if (count === 0 && withChoice === 0) return;
    const totals = this.groupTotals.get(group) ?? newGroup();
    totals.row = null;
    totals.count += count;
    totals.withChoice += withChoice;
    if (count < 0 || withChoice < 0) totals.stale = true;
    if (totals.count <= 0 && totals.withChoice <= 0) this.groupTotals.delete(group);
    else this.groupTotals.set(group, totals);
    this.groupRanking.touch(group);
  }

  /** Drops a day's least frequent inbox questions (also from the totals). */
  pruneInbox(rows: Map<string, InboxCounts>, keep: number): void {
    for (const [key, row] of keepMostFrequent(rows, keep, occurrences)) {
      this.addToTotals(key, row, -1);
    }
  }

  /** Adds a day's rules (as loaded) to the totals. */
  addRuleTotals(tables: DayTables, sign: number): void {
    for (const [ruleId, counts] of tables.rules) {
      this.ruleRanking.touch(ruleId);
      const total = ruleCountsIn(this.rules, ruleId);
      total.hits += sign * counts.hits;
      total.chosen += sign * counts.chosen;
      total.fromMenu += sign * counts.fromMenu;
      total.recommended += sign * counts.recommended;
      if (sign > 0) total.lastHit = Math.max(total.lastHit, counts.lastHit);
      dropIfEmpty(this.rules, ruleId, total);
    }
  }

  /** Closes a day: keeps its tops, drops its inbox rows from memory (the caller saved them). */
  close(tables: DayTables): void {
    keepMostFrequent(tables.questions, TOP_KEPT, (t) => t.count);
    keepMostFrequent(tables.missed, TOP_KEPT, (t) => t.count);
    keepMostFrequent(tables.pairs, TOP_KEPT, (n) => n);
    for (const ranking of Object.values(tables.ranked)) ranking.reset();
    tables.inbox = null;
  }

  /** Forgets the inbox figures of these questions (their occurrences so far are marked). */
  forget(keys: Iterable<string>): void {
    for (const key of keys) {
      const row = this.inbox.get(key);
      if (row) this.addToTotals(key, { ...row }, -1);
      const left = this.inbox.get(key);
      const figures = this.groupTotals.get(row?.group ?? '');
      if (figures) {
        figures.stale = true;
        figures.row = null;
      }
      if (left) {
        this.addToGroup(left.group, -occurrences(left), left.chosen ? -1 : 0);
        this.members.get(left.group)?.delete(key);
        if (this.members.get(left.group)?.size === 0) this.members.delete(left.group);
      }
      this.inbox.delete(key);
      for (const tables of this.days.values()) {
        tables.inbox?.delete(key);
        tables.late.delete(key);
      }
    }
  }

  /** Clears everything. */
  clear(): void {
    this.days.clear();
    this.rules.clear();
    this.inbox.clear();
    this.members.clear();
    this.groupTotals.clear();
    this.groupRanking.reset();
    this.ruleRanking.reset();
  }

  hours(fromDay: DayNumber, toDay: DayNumber): HourRow[] {
    const rows: HourRow[] = [];
    for (const [day, tables] of [...this.days].sort((a, b) => a[0] - b[0])) {
      if (day < fromDay || day > toDay) continue;
      for (let hour = 0; hour < HOURS; hour++) {
        const counts = [...tables.hours.subarray(hour * KINDS, (hour + 1) * KINDS)];
        if (counts.some((count) => count !== 0)) rows.push({ day, hour, counts });
      }
    }
    return rows;
  }

  ruleRows(): RuleRow[] {
    return [...this.rules].map(([ruleId, counts]) => ruleRowOf(ruleId, counts));
  }

  /** Those of these rules hit or recommended (a page of rule analytics: decision 117). */
  ruleRowsOf(ruleIds: readonly string[]): RuleRow[] {
    return ruleIds.flatMap((ruleId) => {
      const counts = this.rules.get(ruleId);
      return counts && (counts.hits > 0 || counts.recommended > 0)
        ? [ruleRowOf(ruleId, counts)]
        : [];
    });
  }

  /** The `limit` rules most hit, most first (ties in byte order of id). */
  async mostHit(limit: number): Promise<RuleRow[]> {
    return (await this.ruleRanking.top(limit)).flatMap(({ key }) => {
      const counts = this.rules.get(key);
      return counts ? [ruleRowOf(key, counts)] : [];
    });
  }

  ruleDays(ruleIds: readonly string[]): { ruleId: string; day: DayNumber; hits: number }[] {
    const rows: { ruleId: string; day: DayNumber; hits: number }[] = [];
    for (const [day, tables] of this.days) {
      for (const ruleId of ruleIds) {
        const hits = tables.rules.get(ruleId)?.hits ?? 0;
        if (hits > 0) rows.push({ ruleId, day, hits });
      }
    }
    return rows.sort((a, b) => a.day - b.day);
  }

  async pairs(limit: number): Promise<{ a: string; b: string; count: number }[]> {
    const counts = await topCounts(
      [...this.days.values()],
      (tables) => ({ map: tables.pairs, ranking: tables.ranked.pairs }),
      limit,
    );
    return counts.map(([key, count]) => {
      const [a = '', b = ''] = key.split('\u0000');
      return { a, b, count };
    });
  }

  async top(
    fromDay: DayNumber,
    toDay: DayNumber,
    missed: boolean,
    limit: number,
  ): Promise<TextCount[]> {
    const days = [...this.days.values()].filter((t) => t.day >= fromDay && t.day <= toDay);
    const counts = await topCounts(
      days,
      (t) =>
        missed
          ? { map: t.missed, ranking: t.ranked.missed }
          : { map: t.questions, ranking: t.ranked.questions },
      limit,
    );
    return counts.map(([key, count]) => ({ key, text: textOf(days, key, missed), count }));
  }

  /**
   * The first `limit` groups of the inbox: read from the groups kept ranked and summed, each
   * row kept until its group changes. Rows to build are built a slice of the event loop at a
   * time: a group's rules and questions may number thousands.
   */
  async inboxGroups(limit: number): Promise<InboxGroupRow[]> {
    const rows: InboxGroupRow[] = [];
    let sliceStart = performance.now();
    for (const { key } of await this.groupRanking.top(limit)) {
      if (performance.now() - sliceStart >= ROW_SLICE_MS) {
        await nextTurn();
        sliceStart = performance.now();
      }
      // Read again after a turn: an ask may have changed or emptied the group meanwhile.
      const figures = this.groupTotals.get(key);
      if (!figures || figures.count <= 0) continue;
      // A stale group is summed again over its questions (its count with it), as before.
      if (figures.stale) rows.push(this.inboxGroup(key, figures));
      else rows.push((figures.row ??= rowOfGroup(key, figures)));
    }
    return rows;
  }

  /** One group of the inbox, its figures summed again over its questions (and kept so). */
  private inboxGroup(group: string, figures: GroupFigures): InboxGroupRow {
    let chosen: Map<string, number> | null = null;
    let evidence: Map<string, number> | null = null;
    let count = 0;
    let lastAt = 0;
    const outcomes = { fallback: 0, recommended: 0, lowScore: 0 };
    const texts = new BestOf<TextCount>(
      EXAMPLES_MAX,
      (a, b) => b.count - a.count || (a.key < b.key ? -1 : 1),
    );
    for (const key of this.members.get(group) ?? []) {
      const row = this.inbox.get(key);
      if (!row) continue;
      outcomes.fallback += row.fallback;
      outcomes.recommended += row.recommended;
      outcomes.lowScore += row.lowScore;
      count += occurrences(row);
      lastAt = Math.max(lastAt, row.lastAt);
      chosen = mergeCounts(chosen, row.chosen, 1);
      evidence = mergeCounts(evidence, row.evidence, 1);
      if (occurrences(row) > 0) texts.add({ key, text: row.text, count: occurrences(row) });
    }
    Object.assign(figures, { outcomes, lastAt, chosen, evidence, texts: texts.items });
    figures.stale = false;
    return rowOfGroup(group, { ...figures, count });
  }

  groupTexts(groups: readonly string[]): string[] {
    return groups.flatMap((group) => [...(this.members.get(group) ?? [])]);
  }
}

/** The INBOX_RULES_MAX rules of most count, most first (ties by id), without sorting them all. */
function byCount(map: Map<string, number> | null): { ruleId: string; count: number }[] {
  const best = new BestOf<{ ruleId: string; count: number }>(
    INBOX_RULES_MAX,
    (a, b) => b.count - a.count || (a.ruleId < b.ruleId ? -1 : 1),
  );
  for (const [ruleId, count] of map ?? []) {
    const worst = best.worst;
    if (
      best.full &&
      worst &&
      (count < worst.count || (count === worst.count && ruleId > worst.ruleId))
    )
      continue;
    best.add({ ruleId, count });
  }
  return best.items;
}

const rowOfGroup = (group: string, figures: GroupFigures): InboxGroupRow => ({
  group,
  count: figures.count,
  lastAt: figures.lastAt,
  outcomes: { ...figures.outcomes },
  chosen: byCount(figures.chosen),
  evidence: byCount(figures.evidence),
  texts: figures.texts.map((text) => ({ ...text })),
});

const ruleRowOf = (ruleId: string, counts: RuleCounts): RuleRow => ({
  ruleId,
  hits: counts.hits,
  chosen: counts.chosen,
  fromMenu: counts.fromMenu,
  recommended: counts.recommended,
  lastHit: counts.lastHit > 0 ? counts.lastHit : null,
});

/**
 * The `limit` keys of most count over days, best first (ties by key). A closed day keeps
 * TOP_KEPT keys: those days are summed into one map. A busy open day (today, yesterday: up to
 * TALLY_MAX keys each) gives the TOP_KEPT keys it keeps ranked, as a closed day keeps them
 * (decision 129): the candidates are those, each summed over the days by lookups. Walking every
 * key of the open days cost the dashboard most of its time at a million asks.
 */
async function topCounts<V extends number | Tally>(
  days: Iterable<DayTables>,
  pick: (tables: DayTables) => { map: Map<string, V>; ranking: RankedTop<number> },
  limit: number,
): Promise<[string, number][]> {
  const countOf = (value: V | undefined): number =>
    value === undefined ? 0 : typeof value === 'number' ? value : value.count;
  const large: Map<string, V>[] = [];
  const candidates = new Set<string>();
  const small = new Map<string, number>();
  let read = 0;
  for (const tables of days) {
    const { map, ranking } = pick(tables);
    if (map.size <= TOP_KEPT) {
      for (const [key, value] of map) small.set(key, (small.get(key) ?? 0) + countOf(value));
      read += map.size;
    } else {
      large.push(map);
      for (const { key } of await ranking.top(TOP_KEPT)) candidates.add(key);
    }
    // A slice of keys a turn: 90 closed days hold up to 18,000 of them.
    if (read >= READ_SLICE) {
      read = 0;
      await nextTurn();
    }
  }
  for (const key of small.keys()) candidates.add(key);
  const best = new BestOf<[string, number]>(limit, (x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
  for (const key of candidates) {
    if (++read % READ_SLICE === 0) await nextTurn();
    let total = small.get(key) ?? 0;
    for (const map of large) total += countOf(map.get(key));
    best.add([key, total]);
  }
  return best.items;
}

/** The text of a question as the earliest day that counts it spelt it. */
function textOf(days: readonly DayTables[], key: string, missed: boolean): string {
  const ordered = [...days].sort((a, b) => a.day - b.day);
  for (const tables of ordered) {
    const tally = (missed ? tables.missed : tables.questions).get(key);
    if (tally) return tally.text;
  }
  return key;
}

/** Where each outcome counts in a day's hours. */
const OUTCOME_INDEX = new Map(OUTCOMES.map((outcome, i) => [outcome, i]));

function addHit(
  rules: Map<string, RuleCounts>,
  hit: NonNullable<EntryFigures['hit']>,
  at: number,
  sign: number,
): void {
  const counts = ruleCountsIn(rules, hit.ruleId);
  counts.hits += sign;
  if (hit.chosen) counts.chosen += sign;
  if (hit.fromMenu) counts.fromMenu += sign;
  if (sign > 0 && at > counts.lastHit) counts.lastHit = at;
  dropIfEmpty(rules, hit.ruleId, counts);
}

function addRecommended(rules: Map<string, RuleCounts>, ruleId: string, sign: number): void {
  const counts = ruleCountsIn(rules, ruleId);
  counts.recommended += sign;
  dropIfEmpty(rules, ruleId, counts);
}

function ruleCountsIn(rules: Map<string, RuleCounts>, ruleId: string): RuleCounts {
  let counts = rules.get(ruleId);
  if (!counts) {
    counts = { hits: 0, chosen: 0, fromMenu: 0, recommended: 0, lastHit: 0 };
    rules.set(ruleId, counts);
  }
  return counts;
}

function dropIfEmpty(rules: Map<string, RuleCounts>, ruleId: string, counts: RuleCounts): void {
  if (counts.hits <= 0 && counts.recommended <= 0) rules.delete(ruleId);
}
