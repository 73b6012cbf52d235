/**
 * Robots and their settings. Each method is one transaction.
 * @module
 */
import type { RobotKey, RobotRecord } from './records';

export interface RobotRepository {
  all(): Promise<RobotRecord[]>;
  exists(robot: RobotKey): Promise<boolean>;
  insert(robot: RobotRecord): Promise<void>;
  /** Sets what is given; false when the robot does not exist. */
  update(
    robot: RobotKey,
    changes: Partial<Pick<RobotRecord, 'name' | 'secret' | 'settingsJson'>>,
  ): Promise<boolean>;
}
