import type { Migration } from './runner';

/**
 * Publishing: numbered versions of a robot's rules and the revisions they are made of (a version
 * is the set of revisions alive at its number: `from_version <= v < to_version`, so a version
 * stores only the rules that changed since the one before), and test sets with their kept runs.
 */
export const migration0005: Migration = {
  version: 5,
  name: 'versions_test_sets',
  sql: `
CREATE TABLE versions (
  tenant_id          INTEGER NOT NULL,
  robot_id           TEXT NOT NULL,
  version            INTEGER NOT NULL,
  note               TEXT NOT NULL,
  author             TEXT NOT NULL,
  created_at         INTEGER NOT NULL,
  rules              INTEGER NOT NULL,
  added              INTEGER NOT NULL,
  changed            INTEGER NOT NULL,
  removed            INTEGER NOT NULL,
  rolled_back_to     INTEGER,
  confirmed_failures TEXT,
  PRIMARY KEY (tenant_id, robot_id, version)
);

CREATE TABLE rule_revisions (
  tenant_id           INTEGER NOT NULL,
  robot_id            TEXT NOT NULL,
  from_version        INTEGER NOT NULL,
  to_version          INTEGER,
  rule_seq            INTEGER NOT NULL,
  rule_id             TEXT NOT NULL,
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
  match_policy        TEXT NOT NULL DEFAULT 'similarity',
  negative_keywords   TEXT NOT NULL DEFAULT '[]',
  menu                TEXT
);

CREATE UNIQUE INDEX rule_revisions_alive ON rule_revisions (rule_id) WHERE to_version IS NULL;
CREATE INDEX rule_revisions_from ON rule_revisions (tenant_id, robot_id, from_version);
CREATE INDEX rule_revisions_to ON rule_revisions (tenant_id, robot_id, to_version);

CREATE TABLE test_cases (
  case_id    INTEGER PRIMARY KEY,
  tenant_id  INTEGER NOT NULL,
  robot_id   TEXT NOT NULL,
  question   TEXT NOT NULL,
  expect     TEXT NOT NULL,
  rule_id    TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE INDEX test_cases_by_robot ON test_cases (tenant_id, robot_id, case_id);

CREATE TABLE test_runs (
  run_id     INTEGER PRIMARY KEY,
  tenant_id  INTEGER NOT NULL,
  robot_id   TEXT NOT NULL,
  edition    TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  summary    TEXT NOT NULL,
  results    TEXT NOT NULL
);

CREATE INDEX test_runs_by_robot ON test_runs (tenant_id, robot_id, run_id);
`,
};
