import { migration0001 } from './0001_init';
import { migration0002 } from './0002_rule_sort_indexes';
import { migration0003 } from './0003_categories_trash_windows';
import { migration0004 } from './0004_menus_match_policies';
import { migration0005 } from './0005_versions_test_sets';
import { migration0006 } from './0006_draft_changes';
import { migration0007 } from './0007_sessions_rule_actors';
import { migration0008 } from './0008_sign_in_attempts';
import { migration0009 } from './0009_version_facts';
import { migration0010 } from './0010_rule_change_counts';
import type { Migration } from './runner';

/** Every migration, in order. Append only: a released migration never changes. */
export const MIGRATIONS: readonly Migration[] = [
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
  migration0006,
  migration0007,
  migration0008,
  migration0009,
  migration0010,
];
