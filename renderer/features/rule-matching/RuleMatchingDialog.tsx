/**
 * How one rule is matched and answered beyond its text: its match policy and negative keywords,
 * the menu its answer introduces (entries picked among the robot's rules), and similar phrasings
 * proposed for it when it allows them, each accepted or rejected by the editor.
 * @module
 */
import { useEffect, useState } from 'react';
import type { ConsoleRule, MatchPolicy } from '../../../electron/service/console-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import { Dialog } from '../../components/Dialog';
import { actorLabel } from '../../i18n/actor-label';
import { DialogActions } from '../../components/DialogActions';
import { ErrorMessage } from '../../components/ErrorMessage';
import { describeProblem } from '../../i18n/describe-problem';
import { problemOfError } from '../../i18n/server-problem';
import { useI18n } from '../../i18n/useI18n';

const POLICIES: readonly MatchPolicy[] = ['similarity', 'exact', 'contains'];
const QUESTIONS_MAX = 10;
const MENU_MAX = 20;

interface Entry {
  ruleId: string;
  /** The target rule's name, for the editor (not stored). */
  ruleName: string;
  text: string;
}

export function RuleMatchingDialog({
  client,
  robotRef,
  rule,
  onClose,
  onSaved,
}: {
  client: ConsoleClient;
  robotRef: RobotRef;
  rule: ConsoleRule;
  onClose: () => void;
  onSaved: (rule: ConsoleRule) => void;
}) {
  const { t, formatDateTime } = useI18n();
  const [policy, setPolicy] = useState<MatchPolicy>(rule.matchPolicy);
  const [negative, setNegative] = useState(rule.negativeKeywords.join('\n'));
  const [entries, setEntries] = useState<Entry[]>(() =>
    (rule.menu ?? []).map((entry) => ({ ...entry, ruleName: '' })),
  );
  const [allowSimGen, setAllowSimGen] = useState(rule.allowSimGen === true);
  const [questions, setQuestions] = useState(rule.questions);
  const [proposals, setProposals] = useState<string[] | null>(null);
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<ConsoleRule[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  // Names of the rules the saved entries lead to.
  useEffect(() => {
    let live = true;
    for (const entry of rule.menu ?? []) {
      client.rule(robotRef, entry.ruleId).then(
        (target) =>
          live &&
          setEntries((current) =>
            current.map((e) =>
              e.ruleId === target.ruleId ? { ...e, ruleName: target.ruleName } : e,
            ),
          ),
        () => undefined,
      );
    }
    return () => {
      live = false;
    };
  }, [client, robotRef, rule.menu]);

  useEffect(() => {
    let live = true;
    const timer = window.setTimeout(() => {
      client.rules(robotRef, { q: search, limit: 8 }).then(
        (page) => live && setFound(page.rows.filter((row) => row.ruleId !== rule.ruleId)),
        () => live && setFound([]),
      );
    }, 200);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [client, robotRef, search, rule.ruleId]);

  const sayError = (caught: unknown) => setError(describeProblem(t, problemOfError(caught)));

  const propose = async () => {
    setError(null);
    try {
      // The service proposes only for a rule that allows it: the flag is saved first.
      if (rule.allowSimGen !== true)
        await client.patchRule(robotRef, rule.ruleId, { allowSimGen: true });
      const { proposals: made } = await client.similar(robotRef, rule.ruleId);
      setProposals(made.filter((text) => !questions.includes(text)));
    } catch (caught) {
      sayError(caught);
    }
  };

  const accept = (text: string) => {
    if (questions.length >= QUESTIONS_MAX) return;
    setQuestions([...questions, text]);
    setProposals((current) => current?.filter((p) => p !== text) ?? null);
  };
  const reject = (text: string) =>
    setProposals((current) => current?.filter((p) => p !== text) ?? null);

  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      const saved = await client.patchRule(robotRef, rule.ruleId, {
        matchPolicy: policy,
        negativeKeywords: negative
          .split(/[\n,，]/)
          .map((word) => word.trim())
          .filter((word) => word !== ''),
        menu: entries.length > 0 ? entries.map(({ ruleId, text }) => ({ ruleId, text })) : null,
        allowSimGen,
        questions,
      });
      onSaved(saved);
      onClose();
    } catch (caught) {
      sayError(caught);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog
      title={t('conv.title', { rule: rule.ruleName })}
      onClose={onClose}
      wide
      testId="rule-matching-dialog"
      footer={
        <DialogActions
          onClose={onClose}
          actionLabel={t('conv.save')}
          onAction={() => void save()}
          disabled={saving}
        />
      }
    >
      <p className="muted" data-testid="rule-changed-by">
        {t('rules.changedBy', {
          actor: rule.updatedBy ? actorLabel(t, rule.updatedBy) : t('rules.actorUnknown'),
          date: formatDateTime(rule.updatedAt),
        })}
      </p>
      {error ? <ErrorMessage>{error}</ErrorMessage> : null}
      <fieldset className="conv-section">
        <legend>{t('conv.policy')}</legend>
        {POLICIES.map((value) => (
          <label key={value} className="conv-choice">
            <input
              type="radio"
              name="match-policy"
              value={value}
              checked={policy === value}
              onChange={() => setPolicy(value)}
            />
            <span>
              <strong>{t(`conv.policy.${value}`)}</strong>{' '}
              <span className="muted">{t(`conv.policyHint.${value}`)}</span>
            </span>
          </label>
        ))}
        <label className="conv-field">
          <span>{t('conv.negative')}</span>
          <textarea
            rows={2}
            value={negative}
            placeholder={t('conv.negativePlaceholder')}
            onChange={(event) => setNegative(event.target.value)}
            data-testid="negative-keywords"
          />
          <span className="muted">{t('conv.negativeHint')}</span>
        </label>
      </fieldset>

      <fieldset className="conv-section" data-testid="menu-editor">
        <legend>{t('conv.menu')}</legend>
        <p className="muted">{t('conv.menuHint')}</p>
        {entries.length === 0 ? <p className="muted">{t('conv.menuEmpty')}</p> : null}
        <ol className="conv-entries">
          {entries.map((entry, i) => (
            <li key={`${entry.ruleId}-${i}`} className="conv-entry">
              <input
                aria-label={t('conv.entryText', { n: i + 1 })}
                value={entry.text}
                maxLength={200}
                onChange={(event) =>
                  setEntries(
                    entries.map((e, j) => (j === i ? { ...e, text: event.target.value } : e)),
                  )
                }
              />
              <span className="muted conv-target">→ {entry.ruleName || entry.ruleId}</span>
              <button
                type="button"
                className="button button-small"
                aria-label={t('conv.removeEntry', { n: i + 1 })}
                onClick={() => setEntries(entries.filter((_, j) => j !== i))}
              >
                ×
              </button>
            </li>
          ))}
        </ol>
        {entries.length < MENU_MAX ? (
          <div className="conv-picker">
            <input
              type="search"
              value={search}
              placeholder={t('conv.findRule')}
              aria-label={t('conv.findRule')}
              onChange={(event) => setSearch(event.target.value)}
              data-testid="menu-rule-search"
            />
            <ul className="conv-found">
              {found.map((candidate) => (
                <li key={candidate.ruleId}>
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() =>
                      setEntries([
                        ...entries,
                        {
                          ruleId: candidate.ruleId,
                          ruleName: candidate.ruleName,
                          text: candidate.ruleName,
                        },
                      ])
                    }
                  >
                    + {candidate.ruleName}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </fieldset>

      <fieldset className="conv-section" data-testid="similar-review">
        <legend>{t('conv.similar')}</legend>
        <label className="conv-choice">
          <input
            type="checkbox"
            checked={allowSimGen}
            onChange={(event) => setAllowSimGen(event.target.checked)}
          />
          <span>{t('conv.allowSimGen')}</span>
        </label>
        <p className="muted">
          {t('conv.phrasingCount', { count: questions.length, max: QUESTIONS_MAX })}
        </p>
        <button
          type="button"
          className="button"
          disabled={!allowSimGen}
          onClick={() => void propose()}
        >
          {t('conv.propose')}
        </button>
        {proposals !== null && proposals.length === 0 ? (
          <p className="muted">{t('conv.noProposals')}</p>
        ) : null}
        <ul className="conv-proposals">
          {(proposals ?? []).map((text) => (
            <li key={text} className="conv-proposal">
              <span>{text}</span>
              <button
                type="button"
                className="button button-small"
                disabled={questions.length >= QUESTIONS_MAX}
                onClick={() => accept(text)}
                aria-label={t('conv.acceptOne', { text })}
              >
                {t('conv.accept')}
              </button>
              <button
                type="button"
                className="button button-small"
                onClick={() => reject(text)}
                aria-label={t('conv.rejectOne', { text })}
              >
                {t('conv.reject')}
              </button>
            </li>
          ))}
        </ul>
      </fieldset>
    </Dialog>
  );
}
