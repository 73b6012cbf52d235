/**
 * The rule a test case expects, picked by name: typing searches the robot's rules (the grid's
 * search), arrows and Enter or a click pick one. A name typed without picking is sent as it is
 * (the service finds the rule of that name, or refuses, and the form says so at this field).
 * @module
 */
import { useEffect, useId, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { ConsoleRule } from '../../../electron/service/console-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import { describedBy, FieldMessage } from '../../components/FieldMessage';
import { useI18n } from '../../i18n/useI18n';
import type { RuleChoice } from './case-form';

const SHOWN = 8;

export function RuleCombobox({
  client,
  robotRef,
  value,
  onChange,
  error,
}: {
  client: ConsoleClient;
  robotRef: RobotRef;
  value: RuleChoice;
  onChange: (value: RuleChoice) => void;
  error: string | null;
}) {
  const { t } = useI18n();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [rules, setRules] = useState<ConsoleRule[]>([]);
  const [active, setActive] = useState(0);
  const { tenantId, robotId } = robotRef;
  const query = value.text.trim();

  useEffect(() => {
    if (!open) return;
    let live = true;
    const timer = window.setTimeout(() => {
      client.rules({ tenantId, robotId }, { limit: SHOWN, ...(query ? { q: query } : {}) }).then(
        (page) => {
          if (!live) return;
          setRules(page.rows);
          setActive(0);
        },
        () => undefined,
      );
    }, 150);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [client, tenantId, robotId, query, open]);

  const pick = (rule: ConsoleRule) => {
    onChange({ text: rule.ruleName, rule: { ruleId: rule.ruleId, ruleName: rule.ruleName } });
    setOpen(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape' && open) {
      setOpen(false);
    } else if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && rules.length > 0) {
      setOpen(true);
      const move = event.key === 'ArrowDown' ? 1 : -1;
      setActive((active + move + rules.length) % rules.length);
    } else if (event.key === 'Enter' && open && rules[active]) {
      pick(rules[active]);
    } else {
      return;
    }
    event.preventDefault();
  };

  const shown = open && rules.length > 0;
  return (
    <div className="rule-combobox">
      <input
        role="combobox"
        aria-label={t('tests.ruleName')}
        aria-expanded={shown}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={shown ? `${id}-${active}` : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error)}
        placeholder={t('tests.findRule')}
        value={value.text}
        autoComplete="off"
        onChange={(event) => {
          const text = event.target.value;
          onChange({ text, rule: value.rule?.ruleName === text ? value.rule : null });
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
      />
      {shown ? (
        <ul className="combo-list rule-combobox-list" id={`${id}-list`} role="listbox">
          {rules.map((rule, i) => (
            <li
              key={rule.ruleId}
              id={`${id}-${i}`}
              role="option"
              aria-selected={i === active}
              className="combo-option"
              onMouseDown={(event) => event.preventDefault()}
              onMouseEnter={() => setActive(i)}
              onClick={() => pick(rule)}
            >
              {rule.ruleName}
              {rule.categoryName ? <span className="muted">{rule.categoryName}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      <FieldMessage id={id} error={error} />
    </div>
  );
}
