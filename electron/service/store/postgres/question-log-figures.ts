/**
 * The team server's question log figures (tables of server migration 7): the figures of the
 * entries buffered since the last flush, summed per row, are upserted in the flush's transaction
 * with the entries (`PendingFigures`); every node reads the same tables (`PostgresFigures`).
 * @module
 */
import type {
  DayNumber,
  EntryFigures,
  HourRow,
  InboxGroupRow,
  LogFigures,
  LogKey,
  RuleRow,
  TextCount,
} from '../contract/question-log';
import { INBOX_RULES_MAX, OUTCOMES } from '../contract/question-log';
import type { Client, Pool } from './connection';
import { inTransaction } from './connection';
import { PostgresFiguresJson } from './question-log-json';

/** Examples shown per inbox group. */
const EXAMPLES_MAX = 10;
/** A day's most asked questions that may be in a top (the embedded store's TOP_KEPT). */
const TOP_CANDIDATES = 200;

interface RuleDelta {
  day: number;
  ruleId: string;
  hits: number;
  chosen: number;
  fromMenu: number;
  recommended: number;
  lastHit: number;
}

interface InboxDelta {
  day: number;
  key: string;
  text: string;
  fallback: number;
  recommended: number;
  lowScore: number;
  lastAt: number;
}

function bump<T>(map: Map<string, T>, key: string, make: () => T): T {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

/** The figures of the entries of one log buffered since the last flush, summed per row. */
export class PendingFigures {
  readonly hours = new Map<string, { day: number; hour: number; counts: number[] }>();
  readonly rules = new Map<string, RuleDelta>();
  readonly pairs = new Map<string, { day: number; a: string; b: string; count: number }>();
  readonly questions = new Map<
    string,
    { day: number; missed: boolean; key: string; text: string; count: number }
  >();
  readonly inbox = new Map<string, InboxDelta>();
  readonly inboxRules = new Map<
    string,
    { day: number; key: string; kind: 'c' | 'e'; ruleId: string; count: number }
  >();
  readonly groups = new Map<string, string>();

  get empty(): boolean {
    return this.hours.size === 0;
  }

  add(f: EntryFigures): void {
    const { day } = f;
    const hour = bump(this.hours, `${day}/${f.hour}`, () => ({
      day,
      hour: f.hour,
      counts: OUTCOMES.map(() => 0),
    }));
    const slot = OUTCOMES.indexOf(f.outcome);
    hour.counts[slot] = (hour.counts[slot] ?? 0) + 1;
    const rule = (ruleId: string) =>
      bump(this.rules, `${day}\u0000${ruleId}`, () => ({
        day,
        ruleId,
        hits: 0,
        chosen: 0,
        fromMenu: 0,
        recommended: 0,
        lastHit: 0,
      }));
    if (f.hit) {
      const counts = rule(f.hit.ruleId);
      counts.hits += 1;
      if (f.hit.chosen) counts.chosen += 1;
      if (f.hit.fromMenu) counts.fromMenu += 1;
      counts.lastHit = Math.max(counts.lastHit, f.at);
    }
    for (const ruleId of f.recommended) rule(ruleId).recommended += 1;
    if (f.pair) {
      const [a, b] = f.pair;
      bump(this.pairs, `${day}\u0000${a}\u0000${b}`, () => ({ day, a, b, count: 0 })).count += 1;
    }
    if (f.question) {
      const { key, text } = f.question;
      for (const missed of f.missed ? [false, true] : [false]) {
        bump(this.questions, `${day}\u0000${missed}\u0000${key}`, () => ({
          day,
          missed,
          key,
          text,
          count: 0,
        })).count += 1;
      }
    }
    const inboxRow = (key: string, text: string) =>
      bump(this.inbox, `${day}\u0000${key}`, () => ({
        day,
        key,
        text,
        fallback: 0,
        recommended: 0,
        lowScore: 0,
        lastAt: 0,
      }));
    const inboxRule = (key: string, kind: 'c' | 'e', ruleId: string) =>
      bump(this.inboxRules, `${day}\u0000${key}\u0000${kind}\u0000${ruleId}`, () => ({
        day,
        key,
        kind,
        ruleId,
        count: 0,
      }));
    if (f.inbox) {
      const row = inboxRow(f.inbox.key, f.inbox.text);
      row[f.inbox.kind] += 1;
      row.lastAt = Math.max(row.lastAt, f.at);
      if (f.inbox.evidence !== null) inboxRule(f.inbox.key, 'e', f.inbox.evidence).count += 1;
      this.groups.set(f.inbox.key, f.inbox.group);
    }
    if (f.choice) {
      inboxRow(f.choice.key, f.choice.text);
      inboxRule(f.choice.key, 'c', f.choice.ruleId).count += 1;
      this.groups.set(f.choice.key, f.choice.group);
    }
  }

  /** Upserts the figures of log `logId` (in the caller's transaction). */
  async write(client: Client, logId: number): Promise<void> {
    const hours = [...this.hours.values()];
    if (hours.length > 0) {
      const column = (i: number) => hours.map((h) => h.counts[i] ?? 0);
      await client.query(
        `INSERT INTO question_log_hours (log_id, day, hour, answered, recommended, fallback, chat, menu)
         SELECT $1, * FROM unnest($2::int[], $3::smallint[], $4::bigint[], $5::bigint[],
                                  $6::bigint[], $7::bigint[], $8::bigint[])
         ON CONFLICT (log_id, day, hour) DO UPDATE SET
           answered = question_log_hours.answered + EXCLUDED.answered,
           recommended = question_log_hours.recommended + EXCLUDED.recommended,
           fallback = question_log_hours.fallback + EXCLUDED.fallback,
           chat = question_log_hours.chat + EXCLUDED.chat,
           menu = question_log_hours.menu + EXCLUDED.menu`,
        [
          logId,
          hours.map((h) => h.day),
          hours.map((h) => h.hour),
          column(0),
          column(1),
          column(2),
          column(3),
          column(4),
        ],
      );
    }
    const rules = [...this.rules.values()];
    if (rules.length > 0) {
      await client.query(
        `INSERT INTO question_log_rules (log_id, day, rule_id, hits, chosen, from_menu, recommended, last_hit)
         SELECT $1, * FROM unnest($2::int[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[],
                                  $7::bigint[], $8::bigint[])
         ON CONFLICT (log_id, day, rule_id) DO UPDATE SET
           hits = question_log_rules.hits + EXCLUDED.hits,
           chosen = question_log_rules.chosen + EXCLUDED.chosen,
           from_menu = question_log_rules.from_menu + EXCLUDED.from_menu,
           recommended = question_log_rules.recommended + EXCLUDED.recommended,
           last_hit = GREATEST(question_log_rules.last_hit, EXCLUDED.last_hit)`,
        [
          logId,
          rules.map((r) => r.day),
          rules.map((r) => r.ruleId),
          rules.map((r) => r.hits),
          rules.map((r) => r.chosen),
          rules.map((r) => r.fromMenu),
          rules.map((r) => r.recommended),
          rules.map((r) => r.lastHit),
        ],
      );
    }
    if (rules.length > 0) await writeTotals(client, logId, rules);
    const pairs = [...this.pairs.values()];
    if (pairs.length > 0) {
      await client.query(
        `INSERT INTO question_log_pairs (log_id, day, a, b, count)
         SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::bigint[])
         ON CONFLICT (log_id, day, a, b) DO UPDATE SET count = question_log_pairs.count + EXCLUDED.count`,
        [
          logId,
          pairs.map((p) => p.day),
          pairs.map((p) => p.a),
          pairs.map((p) => p.b),
          pairs.map((p) => p.count),
        ],
      );
    }
    if (pairs.length > 0) await writePairTotals(client, logId, pairs);
    const questions = [...this.questions.values()];
    if (questions.length > 0) {
      await client.query(
        `INSERT INTO question_log_questions (log_id, day, missed, key, text, count)
         SELECT $1, * FROM unnest($2::int[], $3::boolean[], $4::text[], $5::text[], $6::bigint[])
         ON CONFLICT (log_id, day, missed, key) DO UPDATE SET
           count = question_log_questions.count + EXCLUDED.count`,
        [
          logId,
          questions.map((q) => q.day),
          questions.map((q) => q.missed),
          questions.map((q) => q.key),
          questions.map((q) => q.text),
          questions.map((q) => q.count),
        ],
      );
    }
    const groups = [...this.groups];
    if (groups.length > 0) {
      // The first node to group a question decides its group.
      await client.query(
        `INSERT INTO question_log_groups (log_id, key, grp)
         SELECT $1, * FROM unnest($2::text[], $3::text[]) ON CONFLICT DO NOTHING`,
        [logId, groups.map(([key]) => key), groups.map(([, group]) => group)],
      );
    }
    const inbox = [...this.inbox.values()];
    if (inbox.length > 0) {
      await client.query(
        `INSERT INTO question_log_inbox (log_id, day, key, text, fallback, recommended, low_score, last_at)
         SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::bigint[], $6::bigint[],
                                  $7::bigint[], $8::bigint[])
         ON CONFLICT (log_id, day, key) DO UPDATE SET
           fallback = question_log_inbox.fallback + EXCLUDED.fallback,
           recommended = question_log_inbox.recommended + EXCLUDED.recommended,
           low_score = question_log_inbox.low_score + EXCLUDED.low_score,
           last_at = GREATEST(question_log_inbox.last_at, EXCLUDED.last_at)`,
        [
          logId,
          inbox.map((i) => i.day),
          inbox.map((i) => i.key),
          inbox.map((i) => i.text),
          inbox.map((i) => i.fallback),
          inbox.map((i) => i.recommended),
          inbox.map((i) => i.lowScore),
          inbox.map((i) => i.lastAt),
        ],
      );
    }
    const inboxRules = [...this.inboxRules.values()];
    if (inboxRules.length > 0) {
      await client.query(
        `INSERT INTO question_log_inbox_rules (log_id, day, key, kind, rule_id, count)
         SELECT $1, * FROM unnest($2::int[], $3::text[], $4::char[], $5::text[], $6::bigint[])
         ON CONFLICT (log_id, day, key, kind, rule_id) DO UPDATE SET
           count = question_log_inbox_rules.count + EXCLUDED.count`,
        [
          logId,
          inboxRules.map((r) => r.day),
          inboxRules.map((r) => r.key),
          inboxRules.map((r) => r.kind),
          inboxRules.map((r) => r.ruleId),
          inboxRules.map((r) => r.count),
        ],
      );
    }
    if (inbox.length > 0 || inboxRules.length > 0) {
      await writeGroupTotals(client, logId, inbox, inboxRules);
    }
  }
}

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Adds the day rows' deltas to the rules' running totals (decision 117), rules in byte order: two
 * nodes' flushes (or a flush and the retention) lock the rows they share in the same order.
 */
async function writeTotals(client: Client, logId: number, deltas: readonly RuleDelta[]) {
  const totals = new Map<string, Omit<RuleDelta, 'day'>>();
  for (const delta of deltas) {
    const total = bump(totals, delta.ruleId, () => ({
      ruleId: delta.ruleId,
      hits: 0,
      chosen: 0,
      fromMenu: 0,
      recommended: 0,
      lastHit: 0,
    }));
    total.hits += delta.hits;
    total.chosen += delta.chosen;
    total.fromMenu += delta.fromMenu;
    total.recommended += delta.recommended;
    total.lastHit = Math.max(total.lastHit, delta.lastHit);
  }
  const rows = [...totals.values()].sort((a, b) => byteOrder(a.ruleId, b.ruleId));
  await client.query(
    `INSERT INTO question_log_rule_totals (log_id, rule_id, hits, chosen, from_menu, recommended, last_hit)
     SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[],
                              $7::bigint[])
     ON CONFLICT (log_id, rule_id) DO UPDATE SET
       hits = question_log_rule_totals.hits + EXCLUDED.hits,
       chosen = question_log_rule_totals.chosen + EXCLUDED.chosen,
       from_menu = question_log_rule_totals.from_menu + EXCLUDED.from_menu,
       recommended = question_log_rule_totals.recommended + EXCLUDED.recommended,
       last_hit = GREATEST(question_log_rule_totals.last_hit, EXCLUDED.last_hit)`,
    [
      logId,
      rows.map((r) => r.ruleId),
      rows.map((r) => r.hits),
      rows.map((r) => r.chosen),
      rows.map((r) => r.fromMenu),
      rows.map((r) => r.recommended),
      rows.map((r) => r.lastHit),
    ],
  );
}

/** Adds the day rows' pair counts to the pairs' running counts, pairs in byte order. */
async function writePairTotals(
  client: Client,
  logId: number,
  deltas: readonly { a: string; b: string; count: number }[],
) {
  const totals = new Map<string, { a: string; b: string; count: number }>();
  for (const { a, b, count } of deltas)
    bump(totals, `${a}\u0000${b}`, () => ({ a, b, count: 0 })).count += count;
  const rows = [...totals.values()].sort((x, y) => byteOrder(x.a, y.a) || byteOrder(x.b, y.b));
  await client.query(
    `INSERT INTO question_log_pair_totals (log_id, a, b, count)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::bigint[])
     ON CONFLICT (log_id, a, b) DO UPDATE SET count = question_log_pair_totals.count + EXCLUDED.count`,
    [logId, rows.map((r) => r.a), rows.map((r) => r.b), rows.map((r) => r.count)],
  );
}

/**
 * Adds the inbox rows' deltas to their groups' running figures (decision 131): each question
 * counted in the group the database holds for it (the first node to group it decided), groups
 * in byte order (the lock order of every writer of these rows).
 */
async function writeGroupTotals(
  client: Client,
  logId: number,
  inbox: readonly InboxDelta[],
  inboxRules: readonly { key: string; kind: 'c' | 'e'; ruleId: string; count: number }[],
) {
  const byKey = new Map<
    string,
    { fallback: number; recommended: number; lowScore: number; lastAt: number; chosen: number }
  >();
  const of = (key: string) =>
    bump(byKey, key, () => ({ fallback: 0, recommended: 0, lowScore: 0, lastAt: 0, chosen: 0 }));
  for (const row of inbox) {
    const sums = of(row.key);
    sums.fallback += row.fallback;
    sums.recommended += row.recommended;
    sums.lowScore += row.lowScore;
    sums.lastAt = Math.max(sums.lastAt, row.lastAt);
  }
  for (const row of inboxRules) if (row.kind === 'c') of(row.key).chosen += row.count;
  const keys = [...byKey.keys()];
  const sums = [...byKey.values()];
  await client.query(
    `INSERT INTO question_log_inbox_groups
       (log_id, grp, fallback, recommended, low_score, last_at, chosen)
     SELECT $1, g.grp, sum(d.fallback), sum(d.recommended), sum(d.low_score), max(d.last_at),
            sum(d.chosen)
     FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[])
       AS d(key, fallback, recommended, low_score, last_at, chosen)
     JOIN question_log_groups g ON g.log_id = $1 AND g.key = d.key
     GROUP BY g.grp ORDER BY g.grp COLLATE "C"
     ON CONFLICT (log_id, grp) DO UPDATE SET
       fallback = question_log_inbox_groups.fallback + EXCLUDED.fallback,
       recommended = question_log_inbox_groups.recommended + EXCLUDED.recommended,
       low_score = question_log_inbox_groups.low_score + EXCLUDED.low_score,
       last_at = GREATEST(question_log_inbox_groups.last_at, EXCLUDED.last_at),
       chosen = question_log_inbox_groups.chosen + EXCLUDED.chosen`,
    [
      logId,
      keys,
      sums.map((x) => x.fallback),
      sums.map((x) => x.recommended),
      sums.map((x) => x.lowScore),
      sums.map((x) => x.lastAt),
      sums.map((x) => x.chosen),
    ],
  );
  // What each group shows (decision 142), after the group's own row (every writer's lock order).
  await client.query(
    `INSERT INTO question_log_inbox_group_texts (log_id, grp, key, count)
     SELECT $1, g.grp, d.key, sum(d.count)
     FROM unnest($2::text[], $3::bigint[]) AS d(key, count)
     JOIN question_log_groups g ON g.log_id = $1 AND g.key = d.key
     WHERE d.count > 0
     GROUP BY g.grp, d.key ORDER BY g.grp COLLATE "C", d.key COLLATE "C"
     ON CONFLICT (log_id, grp, key) DO UPDATE SET
       count = question_log_inbox_group_texts.count + EXCLUDED.count`,
    [logId, keys, sums.map((x) => x.fallback + x.recommended + x.lowScore)],
  );
  if (inboxRules.length === 0) return;
  await client.query(
    `INSERT INTO question_log_inbox_group_rules (log_id, grp, kind, rule_id, count)
     SELECT $1, g.grp, d.kind, d.rule_id, sum(d.count)
     FROM unnest($2::text[], $3::char[], $4::text[], $5::bigint[]) AS d(key, kind, rule_id, count)
     JOIN question_log_groups g ON g.log_id = $1 AND g.key = d.key
     GROUP BY g.grp, d.kind, d.rule_id
     ORDER BY g.grp COLLATE "C", d.kind, d.rule_id COLLATE "C"
     ON CONFLICT (log_id, grp, kind, rule_id) DO UPDATE SET
       count = question_log_inbox_group_rules.count + EXCLUDED.count`,
    [
      logId,
      inboxRules.map((r) => r.key),
      inboxRules.map((r) => r.kind),
      inboxRules.map((r) => r.ruleId),
      inboxRules.map((r) => r.count),
    ],
  );
}

/**
 * CTEs (after a `gone` of deleted `question_log_inbox_rules` rows: key, kind, rule_id, count)
 * taking them off their groups' rules (decision 142); `keyed` is what went per group and rule.
 */
const LOWER_GROUP_RULES = `keyed AS (
         SELECT g.grp, gone.kind, gone.rule_id, sum(gone.count) AS count
         FROM gone JOIN question_log_groups g ON g.log_id = $1 AND g.key = gone.key
         GROUP BY g.grp, gone.kind, gone.rule_id),
       lowered AS (
         UPDATE question_log_inbox_group_rules t SET count = t.count - k.count
         FROM keyed k
         WHERE t.log_id = $1 AND t.grp = k.grp AND t.kind = k.kind AND t.rule_id = k.rule_id)`;

/** Rows of groups' examples and rules whose counts went to nothing (decision 142). */
async function dropEmptyGroupParts(client: Client, logId: number, groups: readonly string[]) {
  for (const table of ['question_log_inbox_group_texts', 'question_log_inbox_group_rules']) {
    await client.query(`DELETE FROM ${table} WHERE log_id = $1 AND grp = ANY($2) AND count <= 0`, [
      logId,
      groups,
    ]);
  }
}

/**
 * Deletes the figures of the days before `firstKept`, a table at a time; the rules' (then the
 * pairs') day rows and what they take off their running totals each in one transaction
 * (decision 117): a crash loses both or neither. Days are removed oldest first, so a rule's last hit is on a day kept while it has
 * hits left; with none left it has no last hit.
 */
export async function dropFiguresBefore(pool: Pool, logId: number, firstKept: number) {
  await inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ rule_id: string }>(
      `SELECT DISTINCT rule_id FROM question_log_rules WHERE log_id = $1 AND day < $2`,
      [logId, firstKept],
    );
    if (rows.length === 0) return;
    const ruleIds = rows.map((row) => row.rule_id).sort(byteOrder);
    await client.query(
      `SELECT 1 FROM question_log_rule_totals WHERE log_id = $1 AND rule_id = ANY($2)
       ORDER BY rule_id COLLATE "C" FOR UPDATE`,
      [logId, ruleIds],
    );
    await client.query(
      `WITH gone AS (
         DELETE FROM question_log_rules WHERE log_id = $1 AND day < $2
         RETURNING rule_id, hits, chosen, from_menu, recommended),
       summed AS (
         SELECT rule_id, sum(hits) AS hits, sum(chosen) AS chosen, sum(from_menu) AS from_menu,
                sum(recommended) AS recommended
         FROM gone GROUP BY rule_id)
       UPDATE question_log_rule_totals t SET
         hits = t.hits - s.hits, chosen = t.chosen - s.chosen,
         from_menu = t.from_menu - s.from_menu, recommended = t.recommended - s.recommended,
         last_hit = CASE WHEN t.hits - s.hits > 0 THEN t.last_hit ELSE 0 END
       FROM summed s WHERE t.log_id = $1 AND t.rule_id = s.rule_id`,
      [logId, firstKept],
    );
    await client.query(
      `DELETE FROM question_log_rule_totals
       WHERE log_id = $1 AND rule_id = ANY($2) AND hits <= 0 AND recommended <= 0`,
      [logId, ruleIds],
    );
  });
  await inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ a: string; b: string }>(
      `SELECT DISTINCT a, b FROM question_log_pairs WHERE log_id = $1 AND day < $2`,
      [logId, firstKept],
    );
    if (rows.length === 0) return;
    rows.sort((x, y) => byteOrder(x.a, y.a) || byteOrder(x.b, y.b));
    const as = rows.map((row) => row.a);
    const bs = rows.map((row) => row.b);
    await client.query(
      `SELECT 1 FROM question_log_pair_totals t JOIN unnest($2::text[], $3::text[]) AS p(a, b)
         ON t.log_id = $1 AND t.a = p.a AND t.b = p.b
       ORDER BY t.a COLLATE "C", t.b COLLATE "C" FOR UPDATE OF t`,
      [logId, as, bs],
    );
    await client.query(
      `WITH gone AS (
         DELETE FROM question_log_pairs WHERE log_id = $1 AND day < $2 RETURNING a, b, count),
       summed AS (SELECT a, b, sum(count) AS count FROM gone GROUP BY a, b)
       UPDATE question_log_pair_totals t SET count = t.count - s.count
       FROM summed s WHERE t.log_id = $1 AND t.a = s.a AND t.b = s.b`,
      [logId, firstKept],
    );
    await client.query(
      `DELETE FROM question_log_pair_totals t USING unnest($2::text[], $3::text[]) AS p(a, b)
       WHERE t.log_id = $1 AND t.a = p.a AND t.b = p.b AND t.count <= 0`,
      [logId, as, bs],
    );
  });
  // The inbox's day rows and what they take off their groups' running figures (decision 131).
  await inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ grp: string }>(
      `SELECT DISTINCT g.grp FROM question_log_groups g
       WHERE g.log_id = $1 AND g.key IN (
         SELECT key FROM question_log_inbox WHERE log_id = $1 AND day < $2
         UNION SELECT key FROM question_log_inbox_rules WHERE log_id = $1 AND day < $2)`,
      [logId, firstKept],
    );
    if (rows.length === 0) return;
    const groups = rows.map((row) => row.grp).sort(byteOrder);
    await client.query(
      `SELECT 1 FROM question_log_inbox_groups WHERE log_id = $1 AND grp = ANY($2)
       ORDER BY grp COLLATE "C" FOR UPDATE`,
      [logId, groups],
    );
    // A group's last occurrence is on a day kept while it has occurrences left (days go oldest
    // first); with none left it has none.
    await client.query(
      `WITH gone AS (
         DELETE FROM question_log_inbox WHERE log_id = $1 AND day < $2
         RETURNING key, fallback, recommended, low_score),
       keyed AS (
         SELECT g.grp, gone.key, sum(gone.fallback) AS fallback,
                sum(gone.recommended) AS recommended, sum(gone.low_score) AS low_score
         FROM gone JOIN question_log_groups g ON g.log_id = $1 AND g.key = gone.key
         GROUP BY g.grp, gone.key),
       texts AS (
         UPDATE question_log_inbox_group_texts t
         SET count = t.count - k.fallback - k.recommended - k.low_score
         FROM keyed k WHERE t.log_id = $1 AND t.grp = k.grp AND t.key = k.key),
       summed AS (
         SELECT grp, sum(fallback) AS fallback, sum(recommended) AS recommended,
                sum(low_score) AS low_score
         FROM keyed GROUP BY grp)
       UPDATE question_log_inbox_groups t SET
         fallback = t.fallback - s.fallback, recommended = t.recommended - s.recommended,
         low_score = t.low_score - s.low_score,
         last_at = CASE WHEN t.fallback + t.recommended + t.low_score
                             - s.fallback - s.recommended - s.low_score > 0
                        THEN t.last_at ELSE 0 END
       FROM summed s WHERE t.log_id = $1 AND t.grp = s.grp`,
      [logId, firstKept],
    );
    await client.query(
      `WITH gone AS (
         DELETE FROM question_log_inbox_rules WHERE log_id = $1 AND day < $2
         RETURNING key, kind, rule_id, count),
       ${LOWER_GROUP_RULES},
       summed AS (SELECT grp, sum(count) AS chosen FROM keyed WHERE kind = 'c' GROUP BY grp)
       UPDATE question_log_inbox_groups t SET chosen = t.chosen - s.chosen
       FROM summed s WHERE t.log_id = $1 AND t.grp = s.grp`,
      [logId, firstKept],
    );
    await dropEmptyGroupParts(client, logId, groups);
    await client.query(
      `DELETE FROM question_log_inbox_groups
       WHERE log_id = $1 AND grp = ANY($2)
         AND fallback + recommended + low_score <= 0 AND chosen <= 0`,
      [logId, groups],
    );
  });
  for (const table of FIGURE_TABLES) {
    if (KEPT_IN_STEP.has(table)) continue;
    await pool.query(`DELETE FROM ${table} WHERE log_id = $1 AND day < $2`, [logId, firstKept]);
  }
}

/** Day tables whose rows go with what they take off a running total (above). */
const KEPT_IN_STEP = new Set<string>([
  'question_log_rules',
  'question_log_pairs',
  'question_log_inbox',
  'question_log_inbox_rules',
]);

/** The tables holding figures, by day (what retention and clearing delete). */
export const FIGURE_TABLES = [
  'question_log_hours',
  'question_log_rules',
  'question_log_pairs',
  'question_log_questions',
  'question_log_inbox',
  'question_log_inbox_rules',
] as const;

const TOTAL_COLUMNS = 'rule_id, hits, chosen, from_menu, recommended, last_hit';

interface TotalRow {
  rule_id: string;
  hits: number;
  chosen: number;
  from_menu: number;
  recommended: number;
  last_hit: number;
}

const ruleRow = (row: TotalRow): RuleRow => ({
  ruleId: row.rule_id,
  hits: Number(row.hits),
  chosen: Number(row.chosen),
  fromMenu: Number(row.from_menu),
  recommended: Number(row.recommended),
  lastHit: Number(row.last_hit) > 0 ? Number(row.last_hit) : null,
});

/** The running totals over the days kept (no day: clearing deletes them, retention lowers them). */
export const TOTAL_TABLES = [
  'question_log_rule_totals',
  'question_log_pair_totals',
  'question_log_inbox_groups',
  'question_log_inbox_group_texts',
  'question_log_inbox_group_rules',
] as const;

/** The figures every node reads, from the tables. */
export class PostgresFigures implements LogFigures {
  readonly json: PostgresFiguresJson;

  constructor(
    private readonly pool: Pool,
    /** The log's number, once its pending figures are written (reads see this node's asks). */
    private readonly logId: (log: LogKey) => Promise<number>,
  ) {
    this.json = new PostgresFiguresJson(pool, logId);
  }

  async hours(log: LogKey, fromDay: DayNumber, toDay: DayNumber): Promise<HourRow[]> {
    const { rows } = await this.pool.query<{
      day: number;
      hour: number;
      answered: number;
      recommended: number;
      fallback: number;
      chat: number;
      menu: number;
    }>(
      `SELECT day, hour, answered, recommended, fallback, chat, menu FROM question_log_hours
       WHERE log_id = $1 AND day BETWEEN $2 AND $3 ORDER BY day, hour`,
      [await this.logId(log), fromDay, toDay],
    );
    return rows.map((row) => ({
      day: row.day,
      hour: row.hour,
      counts: OUTCOMES.map((outcome) => Number(row[outcome])),
    }));
  }

  /** Each rule's running total (decision 117): one row a rule, never every day's rows summed. */
  async rules(log: LogKey): Promise<RuleRow[]> {
    const { rows } = await this.pool.query<TotalRow>(
      `SELECT ${TOTAL_COLUMNS} FROM question_log_rule_totals WHERE log_id = $1`,
      [await this.logId(log)],
    );
    return rows.map(ruleRow);
  }

  async rulesOf(log: LogKey, ruleIds: readonly string[]): Promise<RuleRow[]> {
    if (ruleIds.length === 0) return [];
    const { rows } = await this.pool.query<TotalRow>(
      `SELECT ${TOTAL_COLUMNS} FROM question_log_rule_totals
       WHERE log_id = $1 AND rule_id = ANY($2)`,
      [await this.logId(log), ruleIds],
    );
    return rows.map(ruleRow);
  }

  async mostHit(log: LogKey, limit: number): Promise<RuleRow[]> {
    const { rows } = await this.pool.query<TotalRow>(
      `SELECT ${TOTAL_COLUMNS} FROM question_log_rule_totals WHERE log_id = $1 AND hits > 0
       ORDER BY hits DESC, rule_id COLLATE "C" LIMIT $2`,
      [await this.logId(log), limit],
    );
    return rows.map(ruleRow);
  }

  async ruleDays(
    log: LogKey,
    ruleIds: readonly string[],
  ): Promise<{ ruleId: string; day: DayNumber; hits: number }[]> {
    if (ruleIds.length === 0) return [];
    const { rows } = await this.pool.query<{ rule_id: string; day: number; hits: number }>(
      `SELECT rule_id, day, hits FROM question_log_rules
       WHERE log_id = $1 AND rule_id = ANY($2) AND hits > 0 ORDER BY day, rule_id`,
      [await this.logId(log), ruleIds],
    );
    return rows.map((row) => ({ ruleId: row.rule_id, day: row.day, hits: Number(row.hits) }));
  }

  /** The pairs' running counts, most first, by index (decision 117). */
  async pairs(log: LogKey, limit: number): Promise<{ a: string; b: string; count: number }[]> {
    const { rows } = await this.pool.query<{ a: string; b: string; count: number }>(
      `SELECT a, b, count FROM question_log_pair_totals WHERE log_id = $1 AND count > 0
       ORDER BY count DESC, a COLLATE "C", b COLLATE "C" LIMIT $2`,
      [await this.logId(log), limit],
    );
    return rows.map((row) => ({ a: row.a, b: row.b, count: Number(row.count) }));
  }

  async top(
    log: LogKey,
    fromDay: DayNumber,
    toDay: DayNumber,
    missed: boolean,
    limit: number,
  ): Promise<TextCount[]> {
    // The candidates: each day's most asked (by index), as the embedded store keeps a closed
    // day's; their counts then summed over the days (by index): never every question of a day.
    const { rows } = await this.pool.query<{ key: string; text: string; count: number }>(
      `WITH candidates AS (
         SELECT DISTINCT t.key FROM generate_series($3::int, $4::int) AS d(day)
         CROSS JOIN LATERAL (
           SELECT key FROM question_log_questions q
           WHERE q.log_id = $1 AND q.missed = $2 AND q.day = d.day
           ORDER BY q.count DESC LIMIT ${TOP_CANDIDATES}
         ) t
       )
       SELECT q.key, (array_agg(q.text ORDER BY q.day))[1] AS text, sum(q.count)::bigint AS count
       FROM candidates c
       JOIN question_log_questions q
         ON q.log_id = $1 AND q.missed = $2 AND q.key = c.key AND q.day BETWEEN $3 AND $4
       GROUP BY q.key ORDER BY count DESC, q.key COLLATE "C" LIMIT $5`,
      [await this.logId(log), missed, fromDay, toDay, limit],
    );
    return rows.map((row) => ({ key: row.key, text: row.text, count: Number(row.count) }));
  }

  async inbox(log: LogKey, limit: number): Promise<InboxGroupRow[]> {
    const logId = await this.logId(log);
    const { rows } = await this.pool.query<{
      grp: string;
      fallback: number;
      recommended: number;
      low_score: number;
      last_at: number;
    }>(
      // The groups' running figures by index (decision 131), not every question's day rows.
      `SELECT grp, fallback, recommended, low_score, last_at FROM question_log_inbox_groups
       WHERE log_id = $1 AND fallback + recommended + low_score > 0
       ORDER BY chosen > 0 DESC, fallback + recommended + low_score DESC, grp COLLATE "C"
       LIMIT $2`,
      [logId, limit],
    );
    if (rows.length === 0) return [];
    const groups = rows.map((row) => row.grp);
    // Each group's first examples and rules by index (decision 142): never its every question's
    // day rows (the largest group of a million asks had 31k rule rows).
    const examples = await this.pool.query<{ grp: string; key: string; count: number }>(
      `SELECT g.grp, t.key, t.count FROM unnest($2::text[]) AS g(grp)
       CROSS JOIN LATERAL (
         SELECT key, count FROM question_log_inbox_group_texts
         WHERE log_id = $1 AND grp = g.grp AND count > 0
         ORDER BY count DESC, key COLLATE "C" LIMIT ${EXAMPLES_MAX}) t
       ORDER BY g.grp, t.count DESC, t.key COLLATE "C"`,
      [logId, groups],
    );
    // Each example as first typed: its oldest day row's text, one row read per example (server
    // migration 14; every day row of each example, sorted, was a third of the inbox's time).
    const typed = await this.pool.query<{ key: string; text: string }>(
      `SELECT k.key, t.text FROM unnest($2::text[]) AS k(key)
       CROSS JOIN LATERAL (
         SELECT text FROM question_log_inbox WHERE log_id = $1 AND key = k.key
         ORDER BY day LIMIT 1) t`,
      [logId, examples.rows.map((row) => row.key)],
    );
    const textOf = new Map(typed.rows.map((row) => [row.key, row.text]));
    const texts = {
      rows: examples.rows.map((row) => ({ ...row, text: textOf.get(row.key) ?? row.key })),
    };
    const rules = await this.pool.query<{
      grp: string;
      kind: string;
      rule_id: string;
      count: number;
    }>(
      `SELECT g.grp, k.kind, r.rule_id, r.count
       FROM unnest($2::text[]) AS g(grp) CROSS JOIN (VALUES ('c'::char), ('e'::char)) AS k(kind)
       CROSS JOIN LATERAL (
         SELECT rule_id, count FROM question_log_inbox_group_rules
         WHERE log_id = $1 AND grp = g.grp AND kind = k.kind AND count > 0
         ORDER BY count DESC, rule_id COLLATE "C" LIMIT ${INBOX_RULES_MAX}) r
       ORDER BY g.grp, k.kind, r.count DESC, r.rule_id COLLATE "C"`,
      [logId, groups],
    );
    // Each group's rules and texts in one pass (a large group has tens of thousands of rows:
    // filtering them again for every group held the loop for a second at 1M asks).
    const ruleLists = new Map<string, { ruleId: string; count: number }[]>();
    for (const r of rules.rows) {
      bump(ruleLists, `${r.kind}\u0000${r.grp}`, () => []).push({
        ruleId: r.rule_id,
        count: Number(r.count),
      });
    }
    const textLists = new Map<string, TextCount[]>();
    for (const t of texts.rows) {
      bump(textLists, t.grp, () => []).push({ key: t.key, text: t.text, count: Number(t.count) });
    }
    return rows.map((row) => {
      const fallback = Number(row.fallback);
      const recommended = Number(row.recommended);
      const lowScore = Number(row.low_score);
      const of = (kind: string) => ruleLists.get(`${kind}\u0000${row.grp}`) ?? [];
      return {
        group: row.grp,
        count: fallback + recommended + lowScore,
        lastAt: Number(row.last_at),
        outcomes: { fallback, recommended, lowScore },
        chosen: of('c'),
        evidence: of('e'),
        texts: textLists.get(row.grp) ?? [],
      };
    });
  }

  async groupTexts(log: LogKey, groups: readonly string[]): Promise<string[]> {
    const { rows } = await this.pool.query<{ key: string }>(
      'SELECT key FROM question_log_groups WHERE log_id = $1 AND grp = ANY($2)',
      [await this.logId(log), groups],
    );
    return rows.map((row) => row.key);
  }

  async forget(log: LogKey, keys: readonly string[]): Promise<void> {
    const logId = await this.logId(log);
    // The questions' day rows go, and their groups' running figures are counted again from the
    // rows left (decision 131), in one transaction.
    await inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ grp: string }>(
        'SELECT DISTINCT grp FROM question_log_groups WHERE log_id = $1 AND key = ANY($2)',
        [logId, keys],
      );
      const groups = rows.map((row) => row.grp).sort(byteOrder);
      await client.query(
        `SELECT 1 FROM question_log_inbox_groups WHERE log_id = $1 AND grp = ANY($2)
         ORDER BY grp COLLATE "C" FOR UPDATE`,
        [logId, groups],
      );
      await client.query('DELETE FROM question_log_inbox WHERE log_id = $1 AND key = ANY($2)', [
        logId,
        keys,
      ]);
      await client.query(
        `WITH gone AS (
           DELETE FROM question_log_inbox_rules WHERE log_id = $1 AND key = ANY($2)
           RETURNING key, kind, rule_id, count),
         ${LOWER_GROUP_RULES}
         SELECT 1`,
        [logId, keys],
      );
      if (groups.length === 0) return;
      // The questions' examples go whole: every day row of theirs went.
      await client.query(
        `DELETE FROM question_log_inbox_group_texts
         WHERE log_id = $1 AND grp = ANY($2) AND key = ANY($3)`,
        [logId, groups, keys],
      );
      await dropEmptyGroupParts(client, logId, groups);
      await client.query(
        `WITH counted AS (
           SELECT g.grp, coalesce(sum(i.fallback), 0) AS fallback,
                  coalesce(sum(i.recommended), 0) AS recommended,
                  coalesce(sum(i.low_score), 0) AS low_score, coalesce(max(i.last_at), 0) AS last_at,
                  (SELECT coalesce(sum(x.count), 0) FROM question_log_inbox_rules x
                   JOIN question_log_groups h ON h.log_id = x.log_id AND h.key = x.key
                   WHERE x.log_id = $1 AND x.kind = 'c' AND h.grp = g.grp) AS chosen
           FROM question_log_groups g
           LEFT JOIN question_log_inbox i ON i.log_id = g.log_id AND i.key = g.key
           WHERE g.log_id = $1 AND g.grp = ANY($2)
           GROUP BY g.grp)
         UPDATE question_log_inbox_groups t SET
           fallback = c.fallback, recommended = c.recommended, low_score = c.low_score,
           last_at = c.last_at, chosen = c.chosen
         FROM counted c WHERE t.log_id = $1 AND t.grp = c.grp`,
        [logId, groups],
      );
    });
  }
}
