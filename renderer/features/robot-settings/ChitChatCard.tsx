/**
 * Small talk of one robot: on or off, the persona name its answers use, and its own answers to
 * the built-in intents. Saved on its own (the card's button), apart from the settings form.
 * @module
 */
import { useEffect, useState } from 'react';
import type { ConsoleRobot, SmallTalkIntentView } from '../../../electron/service/console-types';
import type { RobotRef } from '../../api/console-client';
import { ErrorMessage } from '../../components/ErrorMessage';
import { useToasts } from '../../components/useToasts';
import { describeProblem } from '../../i18n/describe-problem';
import { problemOfError } from '../../i18n/server-problem';
import { useI18n } from '../../i18n/useI18n';
import { useWorkspace } from '../../lib/workspace/useWorkspace';

export function ChitChatCard({ robotRef, robot }: { robotRef: RobotRef; robot: ConsoleRobot }) {
  const { t } = useI18n();
  const toasts = useToasts();
  const { client, reload } = useWorkspace();
  const [on, setOn] = useState(robot.settings.chitChat);
  const [persona, setPersona] = useState(robot.settings.persona);
  const [answers, setAnswers] = useState<Record<string, string>>(robot.settings.chitChatAnswers);
  const [intents, setIntents] = useState<SmallTalkIntentView[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
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

  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      const own = Object.fromEntries(
        Object.entries(answers).filter(([, text]) => text.trim() !== ''),
      );
      await client.patchRobot(robotRef, {
        settings: { chitChat: on, persona, chitChatAnswers: own },
      });
      toasts.show(t('chat.saved'));
      void reload();
    } catch (caught) {
      setError(describeProblem(t, problemOfError(caught)));
    } finally {
      setSaving(false);
    }
  };

  // The robot's language first: its customers' small talk is mostly in it.
  const shown = [...intents].sort(
    (a, b) => Number(b.language === language) - Number(a.language === language),
  );
  return (
    <section
      className="card settings-card"
      aria-labelledby="settings-chat"
      data-testid="chit-chat-card"
    >
      <header className="card-header">
        <h2 id="settings-chat">{t('chat.title')}</h2>
      </header>
      <div className="settings-body">
        <p className="muted">{t('chat.intro')}</p>
        {error ? <ErrorMessage>{error}</ErrorMessage> : null}
        <label className="conv-choice">
          <input
            type="checkbox"
            checked={on}
            onChange={(event) => setOn(event.target.checked)}
            data-testid="chit-chat-on"
          />
          <span>{t('chat.on')}</span>
        </label>
        <label className="conv-field">
          <span>{t('chat.persona')}</span>
          <input
            value={persona}
            maxLength={50}
            onChange={(event) => setPersona(event.target.value)}
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
                  {intent.language.toUpperCase()} · {intent.examples.join(' / ')}
                </span>
                <textarea
                  rows={2}
                  aria-label={t('chat.answerFor', { examples: intent.examples.join(' / ') })}
                  placeholder={intent.answer}
                  value={answers[intent.key] ?? ''}
                  onChange={(event) => setAnswers({ ...answers, [intent.key]: event.target.value })}
                />
              </li>
            ))}
          </ul>
        </details>
        <div>
          <button
            type="button"
            className="button button-primary"
            disabled={saving}
            onClick={() => void save()}
            data-testid="chit-chat-save"
          >
            {t('chat.save')}
          </button>
        </div>
      </div>
    </section>
  );
}
