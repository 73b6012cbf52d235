/**
 * A robot's name as the editor shows it: the name registration gave the first robot, which no
 * one chose, is said in the editor's language (an openapi registration names it in English);
 * any name an administrator gave is shown as given (docs/decisions.md 113).
 * @module
 */
import { hasDefaultName } from '../../electron/service/console-types';
import type { Translate } from './types';

export function shownRobotName(t: Translate, robot: { robotId: string; name: string }): string {
  return hasDefaultName(robot) ? t('robot.defaultName') : robot.name;
}

/** The same robots (or anything carrying one), each with its name as shown. */
export function withShownNames<R extends { robotId: string; name: string }>(
  t: Translate,
  robots: readonly R[],
): R[] {
  return robots.map((robot) => ({ ...robot, name: shownRobotName(t, robot) }));
}
