/**
 * The robots known to the service, in memory: every signed method-2 request needs its robot's
 * secret and every ask its settings, so they are not read from the store each time. Loaded at
 * start and kept in step by every write of the robots domain.
 * @module
 */
import type { RobotKey, RobotRecord } from '../repositories/records';
import { DEFAULT_ROBOT_SETTINGS, parseStoredSettings } from './robot-settings';
import type { RobotSettings } from './robot-settings';

export interface Robot extends RobotKey {
  name: string;
  secret: string;
  /** The settings in force (defaults for keys the robot never set). */
  settings: RobotSettings;
  /** The keys the robot has set, as stored. */
  storedSettings: Partial<RobotSettings>;
}

/** The key of a robot in every per-robot map of the service. */
export const robotKey = (robot: RobotKey): string => `${robot.tenantId}/${robot.robotId}`;

export function toRobot(record: Omit<RobotRecord, 'createdAt'>): Robot {
  const storedSettings = parseStoredSettings(record.settingsJson);
  return {
    tenantId: record.tenantId,
    robotId: record.robotId,
    name: record.name,
    secret: record.secret,
    settings: { ...DEFAULT_ROBOT_SETTINGS, ...storedSettings },
    storedSettings,
  };
}

export class RobotDirectory {
  private readonly robots = new Map<string, Robot>();

  get(tenantId: number, robotId: string): Robot | undefined {
    return this.robots.get(robotKey({ tenantId, robotId }));
  }

  all(): Robot[] {
    return [...this.robots.values()];
  }

  listForTenant(tenantId: number): Robot[] {
    return this.all().filter((robot) => robot.tenantId === tenantId);
  }

  /** Adds or replaces a robot; returns it as the service now sees it. */
  put(record: Omit<RobotRecord, 'createdAt'>): Robot {
    const robot = toRobot(record);
    this.robots.set(robotKey(robot), robot);
    return robot;
  }

  clear(): void {
    this.robots.clear();
  }
}
