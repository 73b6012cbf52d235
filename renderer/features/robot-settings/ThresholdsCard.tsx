import { LIMITS } from '../../../electron/service/limits';
import { Field } from '../../components/Field';
import { SettingsCard } from '../../components/SettingsCard';
import { useI18n } from '../../i18n/useI18n';
import type { MessageKey } from '../../i18n/types';
import { DefaultNote } from './DefaultNote';
import type { NumberField } from './settings-form';
import type { SettingsForm } from './useRobotSettings';

const FIELDS: { field: NumberField; label: MessageKey; hint: MessageKey }[] = [
  {
    field: 'bestmatchThreshold',
    label: 'settings.bestmatchThreshold',
    hint: 'settings.bestmatchHint',
  },
  {
    field: 'recommendThreshold',
    label: 'settings.recommendThreshold',
    hint: 'settings.recommendThresholdHint',
  },
  { field: 'margin', label: 'settings.margin', hint: 'settings.marginHint' },
  { field: 'maxRecommend', label: 'settings.maxRecommend', hint: 'settings.maxRecommendHint' },
];

/** The thresholds of the answer, each with the sentence saying what it does. */
export function ThresholdsCard({ form }: { form: SettingsForm }) {
  const { t } = useI18n();
  return (
    <SettingsCard id="settings-matching" title={t('settings.matching')}>
      <p className="form-intro">{t('settings.matchingIntro')}</p>
      <ThresholdScale
        best={Number(form.draft.bestmatchThreshold)}
        recommend={Number(form.draft.recommendThreshold)}
      />
      <div className="settings-numbers">
        {FIELDS.map(({ field, label, hint }) => (
          <div key={field} className="setting">
            <Field
              label={t(label)}
              value={form.draft[field]}
              onChange={(value) => form.setText(field, value)}
              error={form.errorOf(field)}
              hint={t(hint, { max: LIMITS.recommendMax })}
              inputMode={field === 'maxRecommend' ? 'numeric' : 'decimal'}
              className="number-input"
            />
            <DefaultNote form={form} field={field} label={t(label)} />
          </div>
        ))}
      </div>
    </SettingsCard>
  );
}

const clamp = (value: number) => (Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0);

/** Scores from 0 to 1 and what each range gives the customer. */
function ThresholdScale({ best, recommend }: { best: number; recommend: number }) {
  const { t } = useI18n();
  const low = clamp(Math.min(recommend, best));
  const high = clamp(best);
  const zones = [
    { key: 'fallback', width: low, label: t('settings.zoneFallback', { low }) },
    { key: 'suggest', width: high - low, label: t('settings.zoneSuggest', { low, high }) },
    { key: 'answer', width: 1 - high, label: t('settings.zoneAnswer', { high }) },
  ];
  return (
    <div className="threshold-scale" data-testid="threshold-scale">
      <div className="threshold-bar" aria-hidden="true">
        {zones.map((zone) => (
          <span
            key={zone.key}
            className={`threshold-zone threshold-${zone.key}`}
            style={{ flexGrow: zone.width }}
          />
        ))}
      </div>
      <ul className="threshold-legend">
        {zones.map((zone) => (
          <li key={zone.key}>
            <span className={`threshold-swatch threshold-${zone.key}`} aria-hidden="true" />
            {zone.label}
          </li>
        ))}
      </ul>
    </div>
  );
}
