/**
 * Small talk of one robot: on or off, the persona name its answers use, and its own answers to
 * the built-in intents. Saved with the rest of the page (useSettingsPage.ts).
 * @module
 */
import { useEffect, useState } from 'react';
import type { ConsoleRobot, SmallTalkIntentView } from '../../../electron/service/console-types';
import { ErrorMessage } from '../../components/ErrorMessage';
import { SettingsCard } from '../../components/SettingsCard';
import { useI18n } from '../../i18n/useI18n';
import { useWorkspace } from '../../lib/workspace/useWorkspace';
import type { ChitChatForm } from './chit-chat-form';

/**
 * A built-in answer as the robot would say it: with the persona name typed, not its
 * placeholder (`{persona}` is internal; a Chinese editor read it as English).
 */
function asAnswered(answer: string, persona: string): string {
  const name = persona.trim();
  return name ? answer.split('{persona}').join(name) : answer;
}

export function ChitChatCard({
  form,
  robot,
  error,
}: {
  form: ChitChatForm;
  robot: ConsoleRobot;
  /** The service's problem with the last save of this part. */
  error: string | null;
}) {
  const { t } = useI18n();
  const { client } = useWorkspace();
  const [intents, setIntents] = useState<SmallTalkIntentView[]>([]);
  const language = robot.settings.language;

  useEffect(() => {
    let live = true;
    client.smallTalk().then(
      ({ intents: all }) => live && setIntents(all),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client]);

  // The robot's language first: its customers' small talk is mostly in it.
  const shown = [...intents].sort(
    (a, b) => Number(b.language === language) - Number(a.language === language),
  );
  return (
    <SettingsCard id="settings-chat" title={t('chat.title')} testId="chit-chat-card">
      <p className="muted">{t('chat.intro')}</p>
      {error ? <ErrorMessage>{error}</ErrorMessage> : null}
      <label className="conv-choice">
        <input
          type="checkbox"
          checked={form.on}
          onChange={(event) => form.setOn(event.target.checked)}
          data-testid="chit-chat-on"
        />
        <span>{t('chat.on')}</span>
      </label>
      <label className="conv-field">
        <span>{t('chat.persona')}</span>
        <input
          value={form.persona}
          maxLength={50}
          onChange={(event) => form.setPersona(event.target.value)}
          data-testid="chit-chat-persona"
        />
        <span className="muted">{t('chat.personaHint')}</span>
      </label>
      <details className="chat-answers">
        <summary>{t('chat.answers', { count: intents.length })}</summary>
        <ul>
          {shown.map((intent) => (
            <li key={intent.key} className="chat-answer">
              <span className="muted">
                {t(`chat.language.${intent.language}`)} · {intent.examples.join(' / ')}
              </span>
              <textarea
                rows={2}
                aria-label={t('chat.answerFor', { examples: intent.examples.join(' / ') })}
                placeholder={asAnswered(intent.answer, form.persona)}
                value={form.answers[intent.key] ?? ''}
                onChange={(event) => form.setAnswer(intent.key, event.target.value)}
              />
            </li>
          ))}
        </ul>
      </details>
    </SettingsCard>
  );
}
