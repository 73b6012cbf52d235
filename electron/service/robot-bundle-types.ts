/**
 * A robot copied between services as one JSON bundle (docs/api.md, "Copying a robot"):
 *   GET  /console/api/tenants/:tenantId/robots/:robotId/bundle → RobotBundle
 *   POST /console/api/tenants/:tenantId/robots/import  RobotBundle → RobotImportResult
 * What is not in a bundle: the robot's id and secret (the copy gets its own), its versions and
 * test runs, its question log, its rule trash, and rule times (the copy's rules are new there).
 * @module
 */
import type { Static } from '@sinclair/typebox';
import type { ConsoleRobot } from './console-types';
import type {
  BundleRuleSchema,
  BundleTestCaseSchema,
  RobotBundleBody,
} from './validation/bundle-schemas';

/**
 * A rule of a bundle. Its `ruleId` is kept by the receiving service when no rule of it has this
 * id, else the rule gets a new one; `categoryName` is the name of one of the bundle's categories
 * (null for none); menu entries lead to rules of the bundle (by their bundle `ruleId`).
 */
export type BundleRule = Static<typeof BundleRuleSchema>;

/** A test case of a bundle: `ruleId` is a rule of the bundle, null for `fallback`. */
export type BundleTestCase = Static<typeof BundleTestCaseSchema>;

/**
 * A robot as one document: what an import takes (its schema, validation/bundle-schemas.ts; the
 * rules in the robot's creation order; `robot.settings` the settings the robot set, synonyms
 * included, the others following the receiver's defaults), plus what an export adds for
 * information and an import ignores.
 */
export type RobotBundle = Static<typeof RobotBundleBody> & {
  /** ISO 8601. */
  exportedAt?: string;
  /**
   * What the export left out because it leads to rules not in the robot any more (in its trash):
   * menu entries and test cases.
   */
  omitted?: { menuEntries: number; testCases: number };
};

export interface RobotImportResult {
  /** The new robot, with its own id and secret. */
  robot: ConsoleRobot;
  categories: number;
  rules: number;
  testCases: number;
  /**
   * Rules that got new ids (menus and test cases follow): their id was taken in the receiving
   * service, or the importer signed in to one tenant (every rule then gets a new id).
   */
  ruleIdsChanged: number;
}
