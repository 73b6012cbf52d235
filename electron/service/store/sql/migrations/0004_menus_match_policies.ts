import type { Migration } from './runner';

/**
 * Rules with a match policy (`similarity`, `exact`, `contains`), negative keywords (a JSON array)
 * and a menu (a JSON array of `{ ruleId, text }` entries, null for a plain answer); the trash
 * keeps them so that a restored rule comes back whole. (Numbered 6 on its branch; the lead may
 * renumber it at merge: only its place in the list matters.)
 */
export const migration0004: Migration = {
  version: 4,
  name: 'menus_match_policies',
  sql: `
ALTER TABLE rules ADD COLUMN match_policy TEXT NOT NULL DEFAULT 'similarity';
ALTER TABLE rules ADD COLUMN negative_keywords TEXT NOT NULL DEFAULT '[]';
ALTER TABLE rules ADD COLUMN menu TEXT;
ALTER TABLE deleted_rules ADD COLUMN match_policy TEXT NOT NULL DEFAULT 'similarity';
ALTER TABLE deleted_rules ADD COLUMN negative_keywords TEXT NOT NULL DEFAULT '[]';
ALTER TABLE deleted_rules ADD COLUMN menu TEXT;
`,
};
