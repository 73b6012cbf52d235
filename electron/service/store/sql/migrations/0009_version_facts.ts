import type { Migration } from './runner';

/**
 * Versions say why they were made as facts, not as English sentences: `mode_switch` ('live' or
 * 'review') marks the version a change of publish mode recorded, and the notes the service used
 * to write itself ("publish mode: review", "rollback to version 3") become empty (the editor
 * says them in its language from `mode_switch` and `rolled_back_to`).
 *
 * And the search text of rules written back by a rollback before issue 29: the embedded store
 * stored "{}" for them (the text was a promise, JSON-encoded), so `q=` never found them. No real
 * search text is "{}" (braces are not words); emptied here, the store fills it again at open.
 * PostgreSQL never had the fault: its script leaves rules alone.
 */
export const migration0009: Migration = {
  version: 9,
  name: 'version_facts',
  sql: `
ALTER TABLE versions ADD COLUMN mode_switch TEXT;
UPDATE versions SET mode_switch = 'review', note = '' WHERE note = 'publish mode: review' AND author = 'api';
UPDATE versions SET mode_switch = 'live', note = '' WHERE note = 'publish mode: live' AND author = 'api';
UPDATE versions SET note = '' WHERE rolled_back_to IS NOT NULL AND note = 'rollback to version ' || rolled_back_to;
UPDATE rules SET search_text = NULL WHERE search_text = '{}';
`,
  postgres: `
ALTER TABLE versions ADD COLUMN mode_switch TEXT;
UPDATE versions SET mode_switch = 'review', note = '' WHERE note = 'publish mode: review' AND author = 'api';
UPDATE versions SET mode_switch = 'live', note = '' WHERE note = 'publish mode: live' AND author = 'api';
UPDATE versions SET note = '' WHERE rolled_back_to IS NOT NULL AND note = 'rollback to version ' || rolled_back_to;
`,
};
