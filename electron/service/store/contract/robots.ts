/**
 * Robots and their settings. Each method is one transaction.
 * @module
 */
import type { RobotKey, RobotRecord } from './records';

export interface RobotRepository {
  /** Every robot not deleted, of every tenant not deleted, in creation order. */
  all(): Promise<RobotRecord[]>;
  /** Robots deleted and restorable (with their tenant still there). */
  deleted(): Promise<RobotRecord[]>;
  /** Whether the robot's id is taken (by a robot deleted but restorable too). */
  exists(robot: RobotKey): Promise<boolean>;
  insert(robot: RobotRecord): Promise<void>;
  /** Sets what is given; false when the robot does not exist. */
  update(
    robot: RobotKey,
    changes: Partial<Pick<RobotRecord, 'name' | 'secret' | 'settingsJson'>>,
  ): Promise<boolean>;
  /** Marks a robot deleted (`at`) or restores it (null); false when it does not exist. */
  setDeleted(robot: RobotKey, at: number | null): Promise<boolean>;
  /**
   * Deletes one robot for good, with its rules, categories, versions and test sets (the cleanup
   * of a copy that failed half-way, domain/robot-bundles.ts); false when it does not exist.
   */
  purge(robot: RobotKey): Promise<boolean>;
  /** Deletes for good the robots deleted before `before`, with their rules and categories. */
  purgeDeleted(before: number): Promise<number>;
}
