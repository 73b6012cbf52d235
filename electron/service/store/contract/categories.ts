/**
 * Each robot's managed list of categories. Rules are filed under a category by its id ('' for
 * none). Each method is one transaction.
 * @module
 */
import type { CategoryRecord, RobotKey } from './records';

export interface CategoryRepository {
  /** The robot's categories by name, with their rule counts. */
  list(robot: RobotKey): Promise<CategoryRecord[]>;
  find(robot: RobotKey, categoryId: string): Promise<CategoryRecord | undefined>;
  /** Throws `UniqueViolation('category-name')` when the key is held in the robot. */
  create(robot: RobotKey, name: string, nameKey: string, now: number): Promise<CategoryRecord>;
  /** Undefined when it does not exist; throws `UniqueViolation('category-name')`. */
  rename(
    robot: RobotKey,
    categoryId: string,
    name: string,
    nameKey: string,
  ): Promise<CategoryRecord | undefined>;
  /**
   * Files the rules of `from` under `into` and deletes `from`; returns the ids of the rules
   * moved.
   */
  merge(
    robot: RobotKey,
    from: readonly string[],
    into: string,
    now: number,
    actor: string,
  ): Promise<string[]>;
  /** Deletes a category; its rules are left without one. Returns the ids of those rules. */
  remove(robot: RobotKey, categoryId: string, now: number, actor: string): Promise<string[]>;
}
