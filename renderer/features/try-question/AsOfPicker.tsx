import { useId } from 'react';
import { useI18n } from '../../i18n/useI18n';
import { toIsoWithOffset } from '../../lib/rules/cell-values';

/** `YYYY-MM-DDTHH:mm` (what a datetime-local input holds) of a time, in local time. */
export function localInputValue(ms: number): string {
  return toIsoWithOffset(new Date(ms)).slice(0, 16);
}

/** A datetime-local value as ISO 8601 with the local offset; null when empty or unreadable. */
export function asOfFromInput(value: string): string | null {
  if (value === '') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : toIsoWithOffset(date);
}

/**
 * "Ask as of a date": off, the question is asked now; on, as of the date and time given (which
 * rules are switched on and inside their window then).
 */
export function AsOfPicker({
  value,
  onChange,
}: {
  /** The datetime-local value, or null when asking now. */
  value: string | null;
  onChange: (value: string | null) => void;
}) {
  const { t } = useI18n();
  const id = useId();
  return (
    <div className="try-as-of-picker">
      <label className="inline-check">
        <input
          type="checkbox"
          checked={value !== null}
          onChange={(event) => onChange(event.target.checked ? localInputValue(Date.now()) : null)}
        />
        {t('try.asOf')}
      </label>
      {value !== null ? (
        <input
          id={id}
          type="datetime-local"
          aria-label={t('try.asOfDate')}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      ) : null}
    </div>
  );
}
