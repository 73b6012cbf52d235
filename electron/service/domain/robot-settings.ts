/**
 * Per-robot answer settings: the decision thresholds of the matcher and the texts of the
 * RECOMMEND and NONE answers. Stored as JSON with the robot; absent keys take the defaults.
 * @module
 */
import { DEFAULT_MATCH_SETTINGS } from '../matching/index';
import type { MatchSettings } from '../matching/types';

export interface RobotSettings extends MatchSettings {
  recommendText: string;
  fallbackText: string;
}

export const DEFAULT_ROBOT_SETTINGS: RobotSettings = {
  ...DEFAULT_MATCH_SETTINGS,
  recommendText: 'Did you mean one of these questions?',
  fallbackText: "Sorry, I don't have an answer to that yet. Please try asking in another way.",
};

/** Reads stored settings, keeping only known keys of the right type over the defaults. */
export function parseRobotSettings(json: string): RobotSettings {
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(json);
    if (parsed && typeof parsed === 'object') stored = parsed as Record<string, unknown>;
  } catch {
    // Unreadable settings fall back to the defaults rather than making the robot unusable.
  }
  const settings: RobotSettings = { ...DEFAULT_ROBOT_SETTINGS };
  for (const key of Object.keys(DEFAULT_ROBOT_SETTINGS) as (keyof RobotSettings)[]) {
    const value = stored[key];
    if (typeof value === typeof DEFAULT_ROBOT_SETTINGS[key]) {
      (settings as unknown as Record<string, unknown>)[key] = value;
    }
  }
  return settings;
}
