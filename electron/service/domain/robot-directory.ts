/**
 * The robots known to the service, in memory: every signed method-2 request needs its robot's
 * secret and every ask its settings, so they are not read from the store each time. Loaded at
 * start and kept in step by every write of the robots domain.
 * @module
 */
import type { RobotKey, RobotRecord } from '../store/contract/records';
import { parseStoredSettings, settingsInForce } from './robot-settings';
import type { RobotLanguage, RobotSettings } from './robot-settings';

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

/** The robot's stored fields as the directory keeps them. */
export type RobotFields = Pick<
  RobotRecord,
  'tenantId' | 'robotId' | 'name' | 'secret' | 'settingsJson'
>;

/** How many of a robot's rules there are, and how many have a Han character in their name. */
export interface LanguageCounts {
  rules: number;
  han: number;
}

const HAN = /\p{Script=Han}/u;

export const hasHan = (text: string): boolean => HAN.test(text);

/** A robot that did not set its language answers in the language of most of its rule names. */
function foundLanguage(counts: LanguageCounts | undefined): RobotLanguage {
  return counts && counts.rules > 0 && counts.han * 2 >= counts.rules ? 'zh' : 'en';
}

function toRobot(record: RobotFields, counts: LanguageCounts | undefined): Robot {
  const storedSettings = parseStoredSettings(record.settingsJson);
  return {
    tenantId: record.tenantId,
    robotId: record.robotId,
    name: record.name,
    secret: record.secret,
    settings: settingsInForce(storedSettings, foundLanguage(counts)),
    storedSettings,
  };
}

const fieldsOf = (robot: Robot): RobotFields => ({
  tenantId: robot.tenantId,
  robotId: robot.robotId,
  name: robot.name,
  secret: robot.secret,
  settingsJson: JSON.stringify(robot.storedSettings),
});

export class RobotDirectory {
  private readonly robots = new Map<string, Robot>();
  private readonly counts = new Map<string, LanguageCounts>();

  get(tenantId: number, robotId: string): Robot | undefined {
    return this.robots.get(robotKey({ tenantId, robotId }));
  }

  /** The robot under its `robotKey`. */
  byKey(key: string): Robot | undefined {
    return this.robots.get(key);
  }

  /** How many rules the robot has (kept in step with its writes, like its index's size). */
  ruleCount(robot: RobotKey): number {
    return this.counts.get(robotKey(robot))?.rules ?? 0;
  }

  all(): Robot[] {
    return [...this.robots.values()];
  }

  listForTenant(tenantId: number): Robot[] {
    return this.all().filter((robot) => robot.tenantId === tenantId);
  }

  /** Adds or replaces a robot; returns it as the service now sees it. */
  put(record: RobotFields): Robot {
    const key = robotKey(record);
    const robot = toRobot(record, this.counts.get(key));
    this.robots.set(key, robot);
    return robot;
  }

  /** Forgets a robot (deleted): requests naming it are refused from now on. */
  remove(robot: RobotKey): void {
    const key = robotKey(robot);
    this.robots.delete(key);
    this.counts.delete(key);
  }

  /**
   * Sets (or adds to) the counts a robot's language is found from; the robot's settings follow
   * when that changes its language.
   */
  countRules(robot: RobotKey, counts: LanguageCounts, add = false): void {
    const key = robotKey(robot);
    const known = this.counts.get(key);
    const next =
      add && known ? { rules: known.rules + counts.rules, han: known.han + counts.han } : counts;
    this.counts.set(key, next);
    const current = this.robots.get(key);
    if (current && foundLanguage(known) !== foundLanguage(next)) this.put(fieldsOf(current));
  }

  clear(): void {
    this.robots.clear();
    this.counts.clear();
  }
}
