import type { Migration } from './runner';

/** The columns a version keeps of a rule, written out: a migration never changes with the code. */
const CONTENT_COLUMNS =
  'rule_seq, rule_name, name_key, category_id, active, allow_sim_gen, effect_begin, effect_end, questions, answer, answer_content_type, created_at, updated_at, match_policy, negative_keywords, menu';

const HAS_VERSION = (row: 'NEW' | 'OLD') =>
  `EXISTS (SELECT 1 FROM versions WHERE tenant_id = ${row}.tenant_id AND robot_id = ${row}.robot_id)`;

const MARK = (row: 'NEW' | 'OLD') =>
  `INSERT OR IGNORE INTO draft_changes (tenant_id, robot_id, rule_id) SELECT ${row}.tenant_id, ${row}.robot_id, ${row}.rule_id WHERE ${HAS_VERSION(row)};`;

/**
 * Publishing compares only what changed: every write to a rule of a robot that has a version
 * marks the rule in `draft_changes` (triggers, so no write path can forget it, and the journal's
 * replay marks the same rules), and a publish compares those rules alone and clears the marks.
 * A robot that never published marks nothing (its first publish copies every rule anyway).
 * Existing robots start with every rule marked: their next publish compares everything once.
 */
export const migration0006: Migration = {
  version: 6,
  name: 'draft_changes',
  sql: `
CREATE TABLE draft_changes (
  tenant_id INTEGER NOT NULL,
  robot_id  TEXT NOT NULL,
  rule_id   TEXT NOT NULL,
  PRIMARY KEY (tenant_id, robot_id, rule_id)
) WITHOUT ROWID;

INSERT OR IGNORE INTO draft_changes (tenant_id, robot_id, rule_id)
  SELECT tenant_id, robot_id, rule_id FROM rules AS r
  WHERE EXISTS (SELECT 1 FROM versions AS v WHERE v.tenant_id = r.tenant_id AND v.robot_id = r.robot_id);
INSERT OR IGNORE INTO draft_changes (tenant_id, robot_id, rule_id)
  SELECT tenant_id, robot_id, rule_id FROM rule_revisions WHERE to_version IS NULL;

CREATE TRIGGER rules_mark_insert AFTER INSERT ON rules BEGIN ${MARK('NEW')} END;
CREATE TRIGGER rules_mark_update AFTER UPDATE OF tenant_id, robot_id, rule_id, ${CONTENT_COLUMNS} ON rules
  BEGIN ${MARK('OLD')} ${MARK('NEW')} END;
CREATE TRIGGER rules_mark_delete AFTER DELETE ON rules BEGIN ${MARK('OLD')} END;
`,
  postgres: `
CREATE TABLE draft_changes (
  tenant_id BIGINT NOT NULL,
  robot_id  TEXT NOT NULL,
  rule_id   TEXT NOT NULL,
  PRIMARY KEY (tenant_id, robot_id, rule_id)
);

INSERT INTO draft_changes (tenant_id, robot_id, rule_id)
  SELECT tenant_id, robot_id, rule_id FROM rules AS r
  WHERE EXISTS (SELECT 1 FROM versions AS v WHERE v.tenant_id = r.tenant_id AND v.robot_id = r.robot_id)
  ON CONFLICT DO NOTHING;
INSERT INTO draft_changes (tenant_id, robot_id, rule_id)
  SELECT tenant_id, robot_id, rule_id FROM rule_revisions WHERE to_version IS NULL
  ON CONFLICT DO NOTHING;

CREATE FUNCTION rules_mark() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO draft_changes (tenant_id, robot_id, rule_id)
      SELECT OLD.tenant_id, OLD.robot_id, OLD.rule_id WHERE ${HAS_VERSION('OLD')}
      ON CONFLICT DO NOTHING;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO draft_changes (tenant_id, robot_id, rule_id)
      SELECT NEW.tenant_id, NEW.robot_id, NEW.rule_id WHERE ${HAS_VERSION('NEW')}
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER rules_mark_insert AFTER INSERT ON rules FOR EACH ROW EXECUTE FUNCTION rules_mark();
CREATE TRIGGER rules_mark_update AFTER UPDATE OF tenant_id, robot_id, rule_id, ${CONTENT_COLUMNS} ON rules
  FOR EACH ROW EXECUTE FUNCTION rules_mark();
CREATE TRIGGER rules_mark_delete AFTER DELETE ON rules FOR EACH ROW EXECUTE FUNCTION rules_mark();
`,
};
