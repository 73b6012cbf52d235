/**
 * The settings page as one form (docs/decisions.md): the robot's texts, thresholds and synonyms,
 * its small talk and its embedding model are edited together and saved by one button, in that
 * order; a part the service refuses stops the save there, with its problem shown.
 * @module
 */
import { useState } from 'react';
import type { ConsoleRobot } from '../../../electron/service/console-types';
import type { RobotRef } from '../../api/console-client';
import { useToasts } from '../../components/useToasts';
import { describeProblem } from '../../i18n/describe-problem';
import { problemOfError } from '../../i18n/server-problem';
import { useI18n } from '../../i18n/useI18n';
import { useWorkspace } from '../../lib/workspace/useWorkspace';
import { useChitChatForm } from './chit-chat-form';
import { useEmbeddingForm } from './embedding-form';
import { useRobotSettings } from './useRobotSettings';

export type SettingsPageForm = ReturnType<typeof useSettingsPage>;

export function useSettingsPage(ref: RobotRef, robot: ConsoleRobot) {
  const { t } = useI18n();
  const toasts = useToasts();
  const { reload } = useWorkspace();
  const settings = useRobotSettings(ref, robot);
  const chat = useChitChatForm(ref, robot);
  const embedding = useEmbeddingForm(ref, robot);
  const [saving, setSaving] = useState(false);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  /** A problem of the small talk or the embedding model, shown in its card. */
  const [partError, setPartError] = useState<{ part: 'chat' | 'embedding'; text: string } | null>(
    null,
  );
  const dirty = settings.dirty || chat.dirty || embedding.dirty;

  const savePart = async (part: 'chat' | 'embedding', send: () => Promise<void>) => {
    try {
      await send();
      return true;
    } catch (caught) {
      setPartError({ part, text: describeProblem(t, problemOfError(caught)) });
      return false;
    }
  };

  const save = async () => {
    if (saving) return;
    setSaving(true);
    setPartError(null);
    try {
      const done =
        (!settings.dirty || (await settings.save())) &&
        (!chat.dirty || (await savePart('chat', chat.save))) &&
        (!embedding.dirty || (await savePart('embedding', embedding.save)));
      await reload();
      if (done) {
        setSavedAt(Date.now());
        toasts.show(t('settings.saved'));
      }
    } finally {
      setSaving(false);
    }
  };

  return {
    settings,
    chat,
    embedding,
    dirty,
    saving,
    savedAt: dirty ? null : savedAt,
    blocked: settings.blocked,
    errorOf: (part: 'chat' | 'embedding') => (partError?.part === part ? partError.text : null),
    save,
    discard: () => {
      settings.discard();
      chat.discard();
      embedding.discard();
      setPartError(null);
    },
  };
}
