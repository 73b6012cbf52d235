import type { Migration } from './runner';

export const migration0001: Migration = {
  version: 1,
  name: 'init',
  sql: `
CREATE TABLE tenants (
  tenant_id    INTEGER PRIMARY KEY,
  phone_number TEXT NOT NULL,
  mail         TEXT NOT NULL,
  company      TEXT NOT NULL,
  created_at   INTEGER NOT NULL
);

CREATE TABLE users (
  user_id       TEXT PRIMARY KEY,
  tenant_id     INTEGER NOT NULL REFERENCES tenants (tenant_id),
  username      TEXT NOT NULL,
  username_key  TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  role          TEXT NOT NULL,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  UNIQUE (tenant_id, username_key)
);

CREATE TABLE robots (
  tenant_id  INTEGER NOT NULL REFERENCES tenants (tenant_id),
  robot_id   TEXT NOT NULL,
  name       TEXT NOT NULL,
  secret     TEXT NOT NULL,
  settings   TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, robot_id)
);

CREATE TABLE rules (
  rule_seq            INTEGER PRIMARY KEY,
  rule_id             TEXT NOT NULL UNIQUE,
  tenant_id           INTEGER NOT NULL,
  robot_id            TEXT NOT NULL,
  rule_name           TEXT NOT NULL,
  name_key            TEXT NOT NULL,
  category_id         TEXT NOT NULL DEFAULT '',
  active              INTEGER NOT NULL DEFAULT 1,
  allow_sim_gen       INTEGER,
  effect_begin        TEXT,
  effect_end          TEXT,
  questions           TEXT NOT NULL,
  answer              TEXT NOT NULL,
  answer_content_type TEXT NOT NULL DEFAULT 'TEXT',
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL,
  FOREIGN KEY (tenant_id, robot_id) REFERENCES robots (tenant_id, robot_id),
  UNIQUE (tenant_id, robot_id, name_key)
);

CREATE INDEX rules_by_robot ON rules (tenant_id, robot_id, rule_seq);
`,
};
