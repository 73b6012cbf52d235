import { postgresSpellings } from './postgres-dialect';
import type { Migration } from './runner';

/**
 * Managed categories (rules hold a category's id, '' for none; the free-text categories of
 * earlier versions become categories of their robot), rule windows in ms (the editor filters by
 * effective state), a normalised search text per rule (filled by the store at open), deleted
 * rules and administrators kept for a grace period, and soft deletion of robots and tenants.
 */
const SQL = `
CREATE TABLE categories (
  category_id INTEGER PRIMARY KEY,
  tenant_id   INTEGER NOT NULL,
  robot_id    TEXT NOT NULL,
  name        TEXT NOT NULL,
  name_key    TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  FOREIGN KEY (tenant_id, robot_id) REFERENCES robots (tenant_id, robot_id),
  UNIQUE (tenant_id, robot_id, name_key)
);

INSERT INTO categories (tenant_id, robot_id, name, name_key, created_at)
SELECT tenant_id, robot_id, trim(category_id), trim(category_id), MIN(created_at)
FROM rules WHERE trim(category_id) <> ''
GROUP BY tenant_id, robot_id, trim(category_id)
ORDER BY tenant_id, robot_id, MIN(rule_seq);

UPDATE rules SET category_id = COALESCE((
  SELECT CAST(c.category_id AS TEXT) FROM categories AS c
  WHERE c.tenant_id = rules.tenant_id AND c.robot_id = rules.robot_id
    AND c.name_key = trim(rules.category_id)), '');

ALTER TABLE rules ADD COLUMN effect_begin_ms INTEGER;
ALTER TABLE rules ADD COLUMN effect_end_ms INTEGER;
ALTER TABLE rules ADD COLUMN search_text TEXT;

UPDATE rules SET
  effect_begin_ms = CAST(round(unixepoch(effect_begin, 'subsec') * 1000) AS INTEGER),
  effect_end_ms = CAST(round(unixepoch(effect_end, 'subsec') * 1000) AS INTEGER)
WHERE effect_begin IS NOT NULL OR effect_end IS NOT NULL;

CREATE INDEX rules_to_search ON rules (search_text) WHERE search_text IS NULL;

CREATE TABLE deleted_rules (
  rule_seq            INTEGER NOT NULL,
  rule_id             TEXT PRIMARY KEY,
  tenant_id           INTEGER NOT NULL,
  robot_id            TEXT NOT NULL,
  rule_name           TEXT NOT NULL,
  name_key            TEXT NOT NULL,
  category_id         TEXT NOT NULL,
  active              INTEGER NOT NULL,
  allow_sim_gen       INTEGER,
  effect_begin        TEXT,
  effect_end          TEXT,
  questions           TEXT NOT NULL,
  answer              TEXT NOT NULL,
  answer_content_type TEXT NOT NULL,
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL,
  deleted_at          INTEGER NOT NULL
);

CREATE INDEX deleted_rules_by_robot ON deleted_rules (tenant_id, robot_id, deleted_at);

CREATE TABLE deleted_users (
  user_id       TEXT PRIMARY KEY,
  tenant_id     INTEGER NOT NULL,
  username      TEXT NOT NULL,
  username_key  TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  role          TEXT NOT NULL,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  deleted_at    INTEGER NOT NULL
);

ALTER TABLE robots ADD COLUMN deleted_at INTEGER;
ALTER TABLE tenants ADD COLUMN deleted_at INTEGER;
`;

/** PostgreSQL reads the windows' ISO times itself (a team server starts empty: no rule has one). */
const POSTGRES = postgresSpellings(
  SQL.replace(
    /unixepoch\((effect_begin|effect_end), 'subsec'\)/g,
    'extract(epoch FROM CAST($1 AS timestamptz))',
  ),
);

export const migration0003: Migration = {
  version: 3,
  name: 'categories_trash_windows',
  sql: SQL,
  postgres: POSTGRES,
};
