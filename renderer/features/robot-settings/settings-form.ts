/**
 * The robot settings form as plain data: the values being edited (numbers as typed), which of
 * them go back to their default, their problems (checked with the service's own schema), and the
 * `settings` patch that saves them (null for a setting sent back to its default).
 * @module
 */
import type { ConsoleRobotSettings, RobotPatch } from '../../../electron/service/console-types';
import { ROBOT_SETTINGS } from '../../../electron/service/validation/console-schemas';
import { compileCheck } from '../../api/field-check';
import type { RobotLanguage } from '../../api/console-client';
import type { Problem } from '../../api/problem';

export const NUMBER_FIELDS = [
  'bestmatchThreshold',
  'recommendThreshold',
  'margin',
  'maxRecommend',
] as const;
export type NumberField = (typeof NUMBER_FIELDS)[number];
export const TEXT_FIELDS = ['fallbackText', 'recommendText'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];
/** Settings with a "back to default" of their own. */
export type ResettableField = TextField | NumberField;

/**
 * What the form holds: the language, texts, numbers as typed (so "0." can be typed), synonym
 * groups, and the settings to send back to their default when saved.
 */
export type SettingsDraft = Record<TextField | NumberField, string> & {
  language: RobotLanguage;
  synonyms: string[][];
  reset: readonly ResettableField[];
};

export type SettingsPatch = NonNullable<RobotPatch['settings']>;

// The values themselves (null, back to the default, is the form's "reset", not a value).
const settingsSchema = ROBOT_SETTINGS;
const synonymsSchema = settingsSchema.synonyms;
const CHECKS = {
  fallbackText: compileCheck(settingsSchema.fallbackText, 'fallbackText'),
  recommendText: compileCheck(settingsSchema.recommendText, 'recommendText'),
  bestmatchThreshold: compileCheck(settingsSchema.bestmatchThreshold, 'bestmatchThreshold'),
  recommendThreshold: compileCheck(settingsSchema.recommendThreshold, 'recommendThreshold'),
  margin: compileCheck(settingsSchema.margin, 'margin'),
  maxRecommend: compileCheck(settingsSchema.maxRecommend, 'maxRecommend'),
  member: compileCheck(synonymsSchema.items.items, 'synonyms'),
  groups: compileCheck(synonymsSchema, 'synonyms'),
};

export function draftOf(settings: ConsoleRobotSettings): SettingsDraft {
  return {
    language: settings.language,
    fallbackText: settings.fallbackText,
    recommendText: settings.recommendText,
    bestmatchThreshold: String(settings.bestmatchThreshold),
    recommendThreshold: String(settings.recommendThreshold),
    margin: String(settings.margin),
    maxRecommend: String(settings.maxRecommend),
    synonyms: settings.synonyms.map((group) => [...group]),
    reset: [],
  };
}

/** A setting's value as the form shows it. */
export function shownValue(settings: ConsoleRobotSettings, field: ResettableField): string {
  return String(settings[field]);
}

/** True when the form shows the default value of `field`. */
export function atDefault(
  draft: SettingsDraft,
  field: ResettableField,
  defaults: ConsoleRobotSettings,
): boolean {
  if (draft.reset.includes(field)) return true;
  const value = draft[field];
  return TEXT_FIELDS.includes(field as TextField)
    ? value === defaults[field]
    : Number(value.trim().replace(',', '.')) === defaults[field];
}

/**
 * The draft with `field` back at its default: shown with the default's value, and saved as null
 * so that it follows the defaults from then on (the robot's language among them).
 */
export function resetField(
  draft: SettingsDraft,
  field: ResettableField,
  defaults: ConsoleRobotSettings,
): SettingsDraft {
  return {
    ...draft,
    [field]: shownValue(defaults, field),
    reset: draft.reset.includes(field) ? draft.reset : [...draft.reset, field],
  };
}

/** The draft with `field` set to what was typed (no longer sent back to its default). */
export function withValue(
  draft: SettingsDraft,
  field: ResettableField,
  value: string,
): SettingsDraft {
  return { ...draft, [field]: value, reset: draft.reset.filter((f) => f !== field) };
}

const isBlank = (text: string) => text.trim() === '';

/**
 * The groups as they are saved: members typed blank are dropped, and groups left with nothing
 * typed in them. Indexes of the result match the form's for every group that is kept.
 */
export function cleanSynonyms(groups: readonly (readonly string[])[]): string[][] {
  return groups
    .map((group) => group.filter((member) => !isBlank(member)))
    .filter((group) => group.length > 0);
}

/** A number as typed: the number, or a problem when it is not one. */
function parseNumber(text: string, field: NumberField): number | Problem {
  if (isBlank(text)) return { field, keyword: 'required', params: {} };
  const value = Number(text.trim().replace(',', '.'));
  return Number.isFinite(value) ? value : { field, keyword: 'type', params: { type: 'number' } };
}

export type SettingsProblems = ReadonlyMap<string, Problem>;

/**
 * Problems of the form, keyed by field path (`fallbackText`, `synonyms[2]`,
 * `synonyms[2][0]`); empty when it can be saved.
 */
export function checkDraft(draft: SettingsDraft): SettingsProblems {
  const problems = new Map<string, Problem>();
  for (const field of TEXT_FIELDS) {
    const problem = CHECKS[field](draft[field]);
    if (problem) problems.set(field, problem);
  }
  const numbers: Partial<Record<NumberField, number>> = {};
  for (const field of NUMBER_FIELDS) {
    const parsed = parseNumber(draft[field], field);
    const problem = typeof parsed === 'number' ? CHECKS[field](parsed) : parsed;
    if (problem) problems.set(field, problem);
    else numbers[field] = parsed as number;
  }
  const { bestmatchThreshold: best, recommendThreshold: recommend } = numbers;
  if (best !== undefined && recommend !== undefined && recommend > best) {
    problems.set('recommendThreshold', {
      field: 'recommendThreshold',
      keyword: 'not-above',
      params: { other: 'bestmatchThreshold' },
    });
  }
  draft.synonyms.forEach((group, g) => {
    const typed = group.filter((member) => !isBlank(member));
    if (typed.length === 0) return;
    group.forEach((member, m) => {
      if (isBlank(member)) return;
      const problem = CHECKS.member(member);
      if (problem)
        problems.set(`synonyms[${g}][${m}]`, { ...problem, field: `synonyms[${g}][${m}]` });
    });
    const { minItems = 0, maxItems = Infinity } = synonymsSchema.items;
    const field = `synonyms[${g}]`;
    if (typed.length < minItems) {
      problems.set(field, { field, keyword: 'minItems', params: { limit: minItems } });
    } else if (typed.length > maxItems) {
      problems.set(field, { field, keyword: 'maxItems', params: { limit: maxItems } });
    }
  });
  const groups = CHECKS.groups(cleanSynonyms(draft.synonyms));
  if (groups && groups.keyword === 'maxItems') problems.set('synonyms', groups);
  return problems;
}

const sameGroups = (a: readonly (readonly string[])[], b: readonly (readonly string[])[]) =>
  a.length === b.length &&
  a.every((group, g) => group.length === b[g]?.length && group.every((m, i) => m === b[g]?.[i]));

/**
 * The settings that differ from `saved`, and null for those sent back to their default (call
 * only once `checkDraft` found no problem).
 */
export function toPatch(draft: SettingsDraft, saved: ConsoleRobotSettings): SettingsPatch {
  const patch: SettingsPatch = {};
  if (draft.language !== saved.language) patch.language = draft.language;
  for (const field of TEXT_FIELDS) {
    if (draft.reset.includes(field)) patch[field] = null;
    else if (draft[field] !== saved[field]) patch[field] = draft[field];
  }
  for (const field of NUMBER_FIELDS) {
    const value = Number(draft[field].trim().replace(',', '.'));
    if (draft.reset.includes(field)) patch[field] = null;
    else if (value !== saved[field]) patch[field] = value;
  }
  const synonyms = cleanSynonyms(draft.synonyms).map((group) => group.map((m) => m.trim()));
  if (!sameGroups(synonyms, saved.synonyms)) patch.synonyms = synonyms;
  return patch;
}

/** True when the form says something else than what is saved. */
export function isDirty(draft: SettingsDraft, saved: ConsoleRobotSettings): boolean {
  const base = draftOf(saved);
  return (
    draft.language !== base.language ||
    draft.reset.length > 0 ||
    [...TEXT_FIELDS, ...NUMBER_FIELDS].some((field) => draft[field] !== base[field]) ||
    !sameGroups(cleanSynonyms(draft.synonyms), base.synonyms)
  );
}
