/**
 * The team server's question log at volume (a server migration: store/postgres/server-migrations.ts,
 * append only, checked by hash): entries indexed for the editor's reads, and the figures kept as
 * asks are recorded, upserted with the entries they summarise in one transaction per flush
 * (store/postgres/question-log.ts, question-log-figures.ts). The entries of migration 2's
 * `question_log` are moved over by a node with their figures, a batch at a time, when it opens
 * their log; the table then stays empty.
 * @module
 */
export const QUESTION_LOG_VOLUME_SQL = `
-- Each robot's log by number; its entries and bytes kept as they change (the size budget).
CREATE TABLE question_logs (
  log_id  INT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  log_key TEXT NOT NULL UNIQUE,
  entries BIGINT NOT NULL DEFAULT 0,
  bytes   BIGINT NOT NULL DEFAULT 0
);

-- An entry: its line (store/sql/question-log-line.ts), its time, its outcome (+8: the try pane)
-- and hashes of its user id and of the rule that answered (0: none), for the filters.
CREATE TABLE question_log_entries (
  log_id    INT NOT NULL,
  entry_id  BIGINT GENERATED ALWAYS AS IDENTITY,
  at        BIGINT NOT NULL,
  outcome   SMALLINT NOT NULL,
  user_hash INT NOT NULL,
  rule_hash INT NOT NULL,
  line      TEXT NOT NULL,
  PRIMARY KEY (log_id, entry_id)
);
CREATE INDEX question_log_entries_by_user ON question_log_entries (log_id, user_hash, entry_id);
CREATE INDEX question_log_entries_by_rule ON question_log_entries (log_id, rule_hash, entry_id)
  WHERE rule_hash <> 0;

-- Questions per hour of each UTC day (days since 1970), by outcome.
CREATE TABLE question_log_hours (
  log_id      INT NOT NULL,
  day         INT NOT NULL,
  hour        SMALLINT NOT NULL,
  answered    BIGINT NOT NULL DEFAULT 0,
  recommended BIGINT NOT NULL DEFAULT 0,
  fallback    BIGINT NOT NULL DEFAULT 0,
  chat        BIGINT NOT NULL DEFAULT 0,
  menu        BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (log_id, day, hour)
);

-- Rule hits (and times recommended) per day.
CREATE TABLE question_log_rules (
  log_id      INT NOT NULL,
  day         INT NOT NULL,
  rule_id     TEXT NOT NULL,
  hits        BIGINT NOT NULL DEFAULT 0,
  chosen      BIGINT NOT NULL DEFAULT 0,
  from_menu   BIGINT NOT NULL DEFAULT 0,
  recommended BIGINT NOT NULL DEFAULT 0,
  last_hit    BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (log_id, day, rule_id)
);

-- The two rules a RECOMMEND listed first, per day.
CREATE TABLE question_log_pairs (
  log_id INT NOT NULL,
  day    INT NOT NULL,
  a      TEXT NOT NULL,
  b      TEXT NOT NULL,
  count  BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (log_id, day, a, b)
);

-- Questions asked (missed: the real misses) per day, by normalised text, as first typed.
CREATE TABLE question_log_questions (
  log_id INT NOT NULL,
  day    INT NOT NULL,
  missed BOOLEAN NOT NULL,
  key    TEXT NOT NULL,
  text   TEXT NOT NULL,
  count  BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (log_id, day, missed, key)
);

-- The group of each question of the inbox: the first node to group it decides.
CREATE TABLE question_log_groups (
  log_id INT NOT NULL,
  key    TEXT NOT NULL,
  grp    TEXT NOT NULL,
  PRIMARY KEY (log_id, key)
);
CREATE INDEX question_log_groups_by_group ON question_log_groups (log_id, grp);

-- The inbox's occurrences per day and question (those a mark hides are not counted).
CREATE TABLE question_log_inbox (
  log_id      INT NOT NULL,
  day         INT NOT NULL,
  key         TEXT NOT NULL,
  text        TEXT NOT NULL,
  fallback    BIGINT NOT NULL DEFAULT 0,
  recommended BIGINT NOT NULL DEFAULT 0,
  low_score   BIGINT NOT NULL DEFAULT 0,
  last_at     BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (log_id, day, key)
);

-- Rules users chose (c) from a question's RECOMMEND lists, and rules its misses pointed to
-- clearly (e), per day.
CREATE TABLE question_log_inbox_rules (
  log_id  INT NOT NULL,
  day     INT NOT NULL,
  key     TEXT NOT NULL,
  kind    CHAR(1) NOT NULL,
  rule_id TEXT NOT NULL,
  count   BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (log_id, day, key, kind, rule_id)
);
`;

/**
 * Server migration 9: the figure tables read by index. A day's most asked questions come from
 * an index by count (each day's first `TOP_CANDIDATES`), their sums over the days from one by
 * question; a rule's hits per day from one by rule (not every rule's days of the log).
 */
export const QUESTION_LOG_FIGURE_INDEXES_SQL = `
CREATE INDEX question_log_questions_by_count
  ON question_log_questions (log_id, missed, day, count DESC);
CREATE INDEX question_log_questions_by_key ON question_log_questions (log_id, missed, key, day);
CREATE INDEX question_log_rules_by_rule ON question_log_rules (log_id, rule_id, day);
`;

/**
 * Server migration 10 (decision 117): each rule's running total over the days kept (hits, times
 * recommended, last hit), kept by the flush's transaction with the day rows and lowered by the
 * retention's in the transaction that deletes them; rule analytics, rule hits and the grid's hit
 * columns read it by index instead of summing every day's rows. Built here from the day rows.
 * The most hit rules (the analytics' hits per day) come from an index by hits; the confusable
 * pairs get running counts the same way.
 */
export const QUESTION_LOG_RULE_TOTALS_SQL = `
CREATE TABLE question_log_rule_totals (
  log_id      INT NOT NULL,
  rule_id     TEXT NOT NULL,
  hits        BIGINT NOT NULL DEFAULT 0,
  chosen      BIGINT NOT NULL DEFAULT 0,
  from_menu   BIGINT NOT NULL DEFAULT 0,
  recommended BIGINT NOT NULL DEFAULT 0,
  last_hit    BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (log_id, rule_id)
);
CREATE INDEX question_log_rule_totals_by_hits
  ON question_log_rule_totals (log_id, hits DESC, rule_id COLLATE "C");

INSERT INTO question_log_rule_totals (log_id, rule_id, hits, chosen, from_menu, recommended, last_hit)
SELECT log_id, rule_id, sum(hits), sum(chosen), sum(from_menu), sum(recommended), max(last_hit)
FROM question_log_rules GROUP BY log_id, rule_id
HAVING sum(hits) > 0 OR sum(recommended) > 0;

-- The confusable pairs likewise: their running counts, the most listed first by index.
CREATE TABLE question_log_pair_totals (
  log_id INT NOT NULL,
  a      TEXT NOT NULL,
  b      TEXT NOT NULL,
  count  BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (log_id, a, b)
);
CREATE INDEX question_log_pair_totals_by_count
  ON question_log_pair_totals (log_id, count DESC, a COLLATE "C", b COLLATE "C");

INSERT INTO question_log_pair_totals (log_id, a, b, count)
SELECT log_id, a, b, sum(count) FROM question_log_pairs GROUP BY log_id, a, b
HAVING sum(count) > 0;
`;

/**
 * Server migration 11 (decision 131): each inbox group's running figures (its occurrences by
 * kind, last occurrence, choices made from its RECOMMENDs), kept by the flush's transaction with
 * the day rows (by the group the database holds for each question), lowered by the retention in
 * the transaction that deletes day rows and counted again for the groups a mark forgets. The
 * inbox reads its page of groups by index instead of summing every question of every day; their
 * examples and rules come by question. Built here from the day rows.
 */
export const QUESTION_LOG_INBOX_GROUPS_SQL = `
CREATE TABLE question_log_inbox_groups (
  log_id      INT NOT NULL,
  grp         TEXT NOT NULL,
  fallback    BIGINT NOT NULL DEFAULT 0,
  recommended BIGINT NOT NULL DEFAULT 0,
  low_score   BIGINT NOT NULL DEFAULT 0,
  last_at     BIGINT NOT NULL DEFAULT 0,
  chosen      BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (log_id, grp)
);
-- The inbox's order: groups users chose from first, then by occurrences, then by id in byte order.
CREATE INDEX question_log_inbox_groups_by_count ON question_log_inbox_groups
  (log_id, (chosen > 0) DESC, (fallback + recommended + low_score) DESC, grp COLLATE "C")
  WHERE fallback + recommended + low_score > 0;
CREATE INDEX question_log_inbox_by_key ON question_log_inbox (log_id, key);
CREATE INDEX question_log_inbox_rules_by_key ON question_log_inbox_rules (log_id, key);

INSERT INTO question_log_inbox_groups (log_id, grp, fallback, recommended, low_score, last_at)
SELECT i.log_id, g.grp, sum(i.fallback), sum(i.recommended), sum(i.low_score), max(i.last_at)
FROM question_log_inbox i JOIN question_log_groups g ON g.log_id = i.log_id AND g.key = i.key
GROUP BY i.log_id, g.grp;

INSERT INTO question_log_inbox_groups (log_id, grp, chosen)
SELECT x.log_id, g.grp, sum(x.count)
FROM question_log_inbox_rules x JOIN question_log_groups g ON g.log_id = x.log_id AND g.key = x.key
WHERE x.kind = 'c'
GROUP BY x.log_id, g.grp
ON CONFLICT (log_id, grp) DO UPDATE SET chosen = EXCLUDED.chosen;
`;

/**
 * Server migration 12 (decision 142): what an inbox group shows, kept as asks are recorded, in
 * the order it is shown. A group's examples (its questions' occurrences) and its rules (chosen
 * from its RECOMMENDs, `c`; pointed to by its misses, `e`) were summed from every day row of
 * every question of the group per read: the largest group of a million asks had 31k rule rows
 * and 679 questions. Each (group, question) and (group, kind, rule) now has one running count,
 * written by the flush's transaction with the day rows (after the group's own row: the lock
 * order), lowered by the retention in the transaction that deletes the day rows and counted
 * again for the groups a mark forgets; the inbox reads each group's first `EXAMPLES_MAX` and
 * `INBOX_RULES_MAX` by index. Built here from the day rows.
 */
export const QUESTION_LOG_INBOX_GROUP_PARTS_SQL = `
CREATE TABLE question_log_inbox_group_texts (
  log_id INT NOT NULL,
  grp    TEXT NOT NULL,
  key    TEXT NOT NULL,
  count  BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (log_id, grp, key)
);
CREATE INDEX question_log_inbox_group_texts_by_count
  ON question_log_inbox_group_texts (log_id, grp, count DESC, key COLLATE "C");

CREATE TABLE question_log_inbox_group_rules (
  log_id  INT NOT NULL,
  grp     TEXT NOT NULL,
  kind    CHAR(1) NOT NULL,
  rule_id TEXT NOT NULL,
  count   BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (log_id, grp, kind, rule_id)
);
CREATE INDEX question_log_inbox_group_rules_by_count
  ON question_log_inbox_group_rules (log_id, grp, kind, count DESC, rule_id COLLATE "C");

-- The size budget counts each entry's row and index entries too (decision 143: 195 bytes, as
-- ENTRY_ROW_BYTES in question-log.ts), and the space its purges free is reused soon: the table's
-- own autovacuum threshold is 1% of its rows (20% by default: a purge of a tenth waited).
UPDATE question_logs SET bytes = bytes + entries * 195;
ALTER TABLE question_log_entries SET (
  autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 5000);

INSERT INTO question_log_inbox_group_texts (log_id, grp, key, count)
SELECT i.log_id, g.grp, i.key, sum(i.fallback + i.recommended + i.low_score)
FROM question_log_inbox i JOIN question_log_groups g ON g.log_id = i.log_id AND g.key = i.key
GROUP BY i.log_id, g.grp, i.key
HAVING sum(i.fallback + i.recommended + i.low_score) > 0;

INSERT INTO question_log_inbox_group_rules (log_id, grp, kind, rule_id, count)
SELECT x.log_id, g.grp, x.kind, x.rule_id, sum(x.count)
FROM question_log_inbox_rules x JOIN question_log_groups g ON g.log_id = x.log_id AND g.key = x.key
GROUP BY x.log_id, g.grp, x.kind, x.rule_id
HAVING sum(x.count) > 0;
`;

/**
 * Server migration 15 (decisions 166-167): rule ids in the stored lines as numbers of their own
 * table (store/postgres/question-log-row.ts): a line named its rule (and a RECOMMEND's) by its
 * 36-character id. Lines written before keep their text ids and read as they did: no row is
 * rewritten. And the emptied table of migration 2 gives its files back: its entries were moved a
 * batch at a time (DELETE leaves the files their size: 267 MB after a million), so once it holds
 * no row it is truncated; one that still holds rows is left to the nodes, which truncate it when
 * their move has emptied it.
 */
export const QUESTION_LOG_RULE_NUMBERS_SQL = `
-- A user's entries are few: the index holds each user once with the row pointers of its entries
-- (B-tree deduplication: ~10 bytes an entry instead of ~40 with the entry's number in every key),
-- and a read sorts them. A user frequent enough to be in the planner's statistics is read from
-- the newest entry back instead. A rule's entries are many: its index keeps their order.
DROP INDEX question_log_entries_by_user;
CREATE INDEX question_log_entries_by_user ON question_log_entries (log_id, user_hash);

CREATE TABLE question_log_rule_numbers (
  rule_num INT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  rule_id  TEXT NOT NULL UNIQUE
);

LOCK TABLE question_log IN ACCESS EXCLUSIVE MODE;
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM question_log) THEN
    TRUNCATE question_log;
  END IF;
END $$;
`;

/**
 * Server migration 16 (decisions 177-178): an entry's index entries without what nobody uses.
 * - `by_rule` holds each rule once with its entries' row pointers (B-tree deduplication: ~6
 *   bytes an entry instead of ~30 with the entry's number in every key), as `by_user` does since
 *   migration 15. A rule's page sorts its entries; a rule frequent enough to matter is read from
 *   the newest entry back by the primary key (the planner's choice).
 * - Rows are never updated and the primary key grows at its right end: its leaves are filled
 *   whole instead of to 90% (pages split from here on; those there are stay as they are).
 * - The size budget counts what an entry now takes beside its line on disk (`ENTRY_ROW_BYTES`,
 *   195 -> 130): each log's count of bytes is lowered by as much per entry.
 * Building the rule's index reads the table once (0.47 s on 200k rows); writes wait meanwhile.
 */
export const QUESTION_LOG_LEANER_INDEXES_SQL = `
DROP INDEX question_log_entries_by_rule;
CREATE INDEX question_log_entries_by_rule ON question_log_entries (log_id, rule_hash)
  WITH (fillfactor = 100) WHERE rule_hash <> 0;
ALTER INDEX question_log_entries_pkey SET (fillfactor = 100);
UPDATE question_logs SET bytes = greatest(0, bytes - entries * (195 - 130));
`;

/**
 * How many low bits of an entry's number count within its log (server migration 17, decision
 * 204): the log's number sits above them, so the primary key is the entry number alone (8 bytes
 * a key, not 4 + 4 of padding + 8) and the row needs no log column. 2^36 entries a log; log
 * numbers up to 2^17 keep every entry number within JavaScript's safe integers.
 */
export const LOG_SHIFT = 36;

/**
 * Server migration 17 (decision 204): the entries' table rewritten once, narrower.
 * - No log column: an entry's number is its log's number shifted left by `LOG_SHIFT`, plus the
 *   number the entry had (numbers within a log keep their order; a page cursor of before maps
 *   the same way). New entries are numbered by their log's `last_entry`, taken by the flush's
 *   transaction with the log's counts (a row lock each flush already held).
 * - The primary key is that one number (a 16-byte key tuple instead of 24); the user's and the
 *   rule's indexes key on the log as the number's high bits (the same bytes as before).
 * - Columns widest first: no alignment padding between them (6 bytes a row before).
 * Writes wait for the rewrite (EXCLUSIVE: reads go on until the swap). Nodes of a version before
 * this one cannot write afterwards: upgrade every node together (docs/question-log.md).
 * The size budget's count of bytes an entry takes beside its line is lowered by what a row saves
 * (ENTRY_ROW_BYTES in question-log.ts).
 */
export const QUESTION_LOG_NARROW_ENTRIES_SQL = `
LOCK TABLE question_log_entries IN EXCLUSIVE MODE;
ALTER TABLE question_logs ADD COLUMN last_entry BIGINT NOT NULL DEFAULT 0;
UPDATE question_logs
  SET last_entry = (SELECT coalesce(max(entry_id), 0) FROM question_log_entries);

CREATE TABLE question_log_entries_narrow (
  entry_id  BIGINT NOT NULL,
  at        BIGINT NOT NULL,
  user_hash INT NOT NULL,
  rule_hash INT NOT NULL,
  outcome   SMALLINT NOT NULL,
  line      TEXT NOT NULL
);
INSERT INTO question_log_entries_narrow (entry_id, at, user_hash, rule_hash, outcome, line)
SELECT (log_id::bigint << ${LOG_SHIFT}) | entry_id, at, user_hash, rule_hash, outcome, line
FROM question_log_entries ORDER BY log_id, entry_id;
DROP TABLE question_log_entries;
ALTER TABLE question_log_entries_narrow RENAME TO question_log_entries;

ALTER TABLE question_log_entries ADD CONSTRAINT question_log_entries_pkey
  PRIMARY KEY (entry_id) WITH (fillfactor = 100);
CREATE INDEX question_log_entries_by_user
  ON question_log_entries (((entry_id >> ${LOG_SHIFT})::int), user_hash);
CREATE INDEX question_log_entries_by_rule
  ON question_log_entries (((entry_id >> ${LOG_SHIFT})::int), rule_hash)
  WITH (fillfactor = 100) WHERE rule_hash <> 0;
ALTER TABLE question_log_entries SET (
  autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 5000);
UPDATE question_logs SET bytes = greatest(0, bytes - entries * (130 - 112));
ANALYZE question_log_entries;
`;

/**
 * The entries of the log numbered by the SQL parameter `param` (since migration 17): a range of
 * the primary key, so that a log's page reads its own entries only.
 */
export const entriesOfLog = (param: string): string =>
  `entry_id > (${param}::bigint << ${LOG_SHIFT}) AND entry_id < ((${param}::bigint + 1) << ${LOG_SHIFT})`;

/** An entry's log as the user's and the rule's indexes key it (`= $n` lets them be used). */
export const LOG_OF_ENTRY = `(entry_id >> ${LOG_SHIFT})::int`;

/** The entry number of a log's `n`th entry (JavaScript's side of `entriesOfLog`). */
export function entryNumber(logId: number, n: number): number {
  const number = logId * 2 ** LOG_SHIFT + n;
  // Past 2^17 logs an entry's number would round in JavaScript: pages would skip entries.
  if (!Number.isSafeInteger(number)) throw new Error(`log ${logId} has no safe entry numbers`);
  return number;
}
