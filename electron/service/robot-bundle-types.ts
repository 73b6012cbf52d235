/**
 * A robot copied between services as one JSON bundle (docs/api.md, "Copying a robot"):
 *   GET  /console/api/tenants/:tenantId/robots/:robotId/bundle → RobotBundle
 *   POST /console/api/tenants/:tenantId/robots/import  RobotBundle → RobotImportResult
 * What is not in a bundle: the robot's id and secret (the copy gets its own), its versions and
 * test runs, its question log, its rule trash, and rule times (the copy's rules are new there).
 * @module
 */
import type { ConsoleRobot, ConsoleRobotSettings, MatchPolicy, MenuEntry } from './console-types';
import type { TestExpectation } from './publishing-types';

export interface BundleRule {
  /** Kept by the receiving service when no rule of it has this id; else it gets a new one. */
  ruleId: string;
  ruleName: string;
  questions: string[];
  answer: string;
  /** The name of one of the bundle's categories; null for none. */
  categoryName: string | null;
  active: boolean;
  allowSimGen: boolean | null;
  effectBeignDate: string | null;
  effectEndDate: string | null;
  matchPolicy: MatchPolicy;
  negativeKeywords: string[];
  /** Entries lead to rules of the bundle (by their bundle `ruleId`). */
  menu: MenuEntry[] | null;
}

export interface BundleTestCase {
  question: string;
  expect: TestExpectation;
  /** A rule of the bundle; null for `fallback`. */
  ruleId: string | null;
}

export interface RobotBundle {
  format: 'kb-studio-robot';
  version: 1;
  /** ISO 8601; informative. */
  exportedAt?: string;
  robot: {
    name: string;
    /** The settings the robot set (synonyms included); the others follow the receiver's defaults. */
    settings: Partial<ConsoleRobotSettings>;
  };
  categories: { name: string }[];
  /** In the robot's creation order. */
  rules: BundleRule[];
  testCases: BundleTestCase[];
  /**
   * What the export left out because it leads to rules not in the robot any more (in its trash):
   * menu entries and test cases. Informative; ignored by an import.
   */
  omitted?: { menuEntries: number; testCases: number };
}

export interface RobotImportResult {
  /** The new robot, with its own id and secret. */
  robot: ConsoleRobot;
  categories: number;
  rules: number;
  testCases: number;
  /** Rules whose id was taken in the receiving service: they got new ids (menus and test cases follow). */
  ruleIdsChanged: number;
}
