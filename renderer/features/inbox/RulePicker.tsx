import { useEffect, useState } from 'react';
import type { ConsoleRule } from '../../../electron/service/console-types';
import { useI18n } from '../../i18n/useI18n';
import { useWorkspace } from '../../lib/workspace/useWorkspace';

/** Finds a rule by name, phrasing or answer (the grid's search) to add questions to. */
export function RulePicker({
  robotRef,
  initial,
  onPick,
}: {
  robotRef: { tenantId: number; robotId: string };
  initial: string;
  onPick: (rule: ConsoleRule) => void;
}) {
  const { t } = useI18n();
  const { client } = useWorkspace();
  const [q, setQ] = useState('');
  const [rules, setRules] = useState<ConsoleRule[]>([]);
  const { tenantId, robotId } = robotRef;
  useEffect(() => {
    let live = true;
    client.rules({ tenantId, robotId }, { limit: 8, ...(q.trim() ? { q: q.trim() } : {}) }).then(
      (page) => live && setRules(page.rows),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, tenantId, robotId, q]);
  return (
    <div className="inbox-picker">
      <input
        type="search"
        aria-label={t('inbox.findRule')}
        placeholder={t('inbox.findRule')}
        value={q}
        onChange={(event) => setQ(event.target.value)}
        title={initial}
      />
      <ul>
        {rules.map((rule) => (
          <li key={rule.ruleId}>
            <button type="button" className="link-button" onClick={() => onPick(rule)}>
              {rule.ruleName}
            </button>{' '}
            <span className="muted">({rule.questions.length}/10)</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
