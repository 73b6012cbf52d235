/**
 * State of the robot settings page: the values being edited, their problems (shown once the
 * field was changed, or all of them after a save was tried), and the save through the console
 * `PATCH …/robots/:robotId` with the changed settings only (the page saves it with its other
 * parts, useSettingsPage.ts).
 * @module
 */
import { useMemo, useState } from 'react';
import type { ConsoleRobot } from '../../../electron/service/console-types';
import type { RobotRef } from '../../api/console-client';
import { useToasts } from '../../components/useToasts';
import { describeProblem } from '../../i18n/describe-problem';
import type { Problem } from '../../api/problem';
import { problemOfError } from '../../i18n/server-problem';
import { useI18n } from '../../i18n/useI18n';
import { useWorkspace } from '../../lib/workspace/useWorkspace';
import {
  atDefault,
  checkDraft,
  draftOf,
  isDirty,
  resetField,
  toPatch,
  withValue,
} from './settings-form';
import type { ResettableField, SettingsDraft } from './settings-form';
import type { RobotLanguage } from '../../api/console-client';

export type SettingsForm = ReturnType<typeof useRobotSettings>;

export function useRobotSettings(ref: RobotRef, robot: ConsoleRobot) {
  const { t } = useI18n();
  const toasts = useToasts();
  const { client } = useWorkspace();
  const [draft, setDraft] = useState<SettingsDraft>(() => draftOf(robot.settings));
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [tried, setTried] = useState(false);
  const [serverProblem, setServerProblem] = useState<Problem | null>(null);
  const [saving, setSaving] = useState(false);

  const problems = useMemo(() => checkDraft(draft), [draft]);
  const dirty = isDirty(draft, robot.settings);

  const change = (field: string, next: (current: SettingsDraft) => SettingsDraft) => {
    setDraft(next);
    setTouched((current) => new Set(current).add(field));
    setServerProblem(null);
  };

  /** The problem of a field as a sentence, once it may be shown. */
  const errorOf = (field: string): string | null => {
    if (serverProblem?.field === field) return describeProblem(t, serverProblem);
    const problem = problems.get(field);
    if (!problem) return null;
    const group = /^synonyms\[\d+\]$/.test(field);
    return tried || (!group && touched.has(field)) ? describeProblem(t, problem) : null;
  };

  const setText = (field: ResettableField, value: string) =>
    change(field, (d) => withValue(d, field, value));

  /** Sends `field` back to its default (in the robot's language) when saved. */
  const reset = (field: ResettableField) =>
    change(field, (d) => resetField(d, field, robot.defaults));

  const setLanguage = (language: RobotLanguage) => change('language', (d) => ({ ...d, language }));

  const setGroups = (field: string, edit: (groups: string[][]) => string[][]) =>
    change(field, (d) => ({ ...d, synonyms: edit(d.synonyms.map((group) => [...group])) }));

  const synonyms = {
    addGroup: () => setGroups('synonyms', (groups) => [...groups, ['', '']]),
    removeGroup: (g: number) => setGroups('synonyms', (groups) => groups.filter((_, i) => i !== g)),
    addMember: (g: number) =>
      setGroups(`synonyms[${g}]`, (groups) =>
        groups.map((group, i) => (i === g ? [...group, ''] : group)),
      ),
    removeMember: (g: number, m: number) =>
      setGroups(`synonyms[${g}]`, (groups) =>
        groups.map((group, i) => (i === g ? group.filter((_, j) => j !== m) : group)),
      ),
    setMember: (g: number, m: number, value: string) =>
      setGroups(`synonyms[${g}][${m}]`, (groups) =>
        groups.map((group, i) =>
          i === g ? group.map((old, j) => (j === m ? value : old)) : group,
        ),
      ),
  };

  /** Sends the changed settings; false when they are invalid or the service refused them. */
  const save = async (): Promise<boolean> => {
    setTried(true);
    if (problems.size > 0 || saving) return false;
    const patch = toPatch(draft, robot.settings);
    if (Object.keys(patch).length === 0) return true;
    setSaving(true);
    try {
      const updated = await client.patchRobot(ref, { settings: patch });
      setDraft(draftOf(updated.settings));
      setTouched(new Set());
      setTried(false);
      return true;
    } catch (error) {
      const problem = problemOfError(error);
      setServerProblem(problem);
      if (!problem.field || !(problem.field in draft)) {
        toasts.show(describeProblem(t, problem), { tone: 'error' });
      }
      return false;
    } finally {
      setSaving(false);
    }
  };

  const discard = () => {
    setDraft(draftOf(robot.settings));
    setTouched(new Set());
    setTried(false);
    setServerProblem(null);
  };

  return {
    draft,
    dirty,
    saving,
    /** A save was tried while some values were invalid. */
    blocked: tried && problems.size > 0,
    /** What each setting is when the robot has not set it (in its saved language). */
    defaults: robot.defaults,
    /** The robot's language is changed in the form, not saved yet. */
    languageChanged: draft.language !== robot.settings.language,
    atDefault: (field: ResettableField) => atDefault(draft, field, robot.defaults),
    errorOf,
    setText,
    setLanguage,
    reset,
    synonyms,
    save,
    discard,
  };
}
