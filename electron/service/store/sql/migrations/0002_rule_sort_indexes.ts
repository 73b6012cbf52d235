import type { Migration } from './runner';

/**
 * The editor sorts and filters a robot's rules by these columns, at 100k rules (sorting by name
 * uses the unique name index). Each index costs import speed: add one only for a real need.
 */
export const migration0002: Migration = {
  version: 2,
  name: 'rule_sort_indexes',
  sql: `
CREATE INDEX rules_by_updated ON rules (tenant_id, robot_id, updated_at);
CREATE INDEX rules_by_category ON rules (tenant_id, robot_id, category_id, rule_seq);
`,
};
