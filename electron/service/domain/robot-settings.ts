/**
 * Per-robot answer settings: the decision thresholds of the matcher, the texts of the RECOMMEND
 * and NONE answers, and the synonym groups. Stored as JSON with the robot, holding only the keys
 * that were set: the others follow the defaults, including better defaults of later versions.
 * @module
 */
import { DEFAULT_MATCH_SETTINGS } from '../matching/index';
import type { MatchSettings } from '../matching/types';

export type SynonymGroups = readonly (readonly string[])[];

export interface RobotSettings extends MatchSettings {
  recommendText: string;
  fallbackText: string;
  /** Groups of interchangeable words or phrases in this robot's knowledge base. */
  synonyms: SynonymGroups;
}

export const DEFAULT_ROBOT_SETTINGS: RobotSettings = {
  ...DEFAULT_MATCH_SETTINGS,
  recommendText: 'Did you mean one of these questions?',
  fallbackText: "Sorry, I don't have an answer to that yet. Please try asking in another way.",
  synonyms: [],
};

const isSynonymGroups = (value: unknown): value is SynonymGroups =>
  Array.isArray(value) &&
  value.every((group) => Array.isArray(group) && group.every((m) => typeof m === 'string'));

/**
 * The settings a robot has set, from their stored JSON: only known keys with values of the right
 * type. Unreadable JSON counts as none, rather than making the robot unusable.
 */
export function parseStoredSettings(json: string): Partial<RobotSettings> {
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(json);
    if (parsed && typeof parsed === 'object') stored = parsed as Record<string, unknown>;
  } catch {
    return {};
  }
  const settings: Record<string, unknown> = {};
  for (const key of Object.keys(DEFAULT_ROBOT_SETTINGS) as (keyof RobotSettings)[]) {
    const value = stored[key];
    const fits =
      key === 'synonyms'
        ? isSynonymGroups(value)
        : typeof value === typeof DEFAULT_ROBOT_SETTINGS[key];
    if (fits) settings[key] = value;
  }
  return settings as Partial<RobotSettings>;
}
