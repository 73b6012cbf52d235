import { SettingsCard } from '../../components/SettingsCard';
import { useI18n } from '../../i18n/useI18n';
import type { SettingsForm } from './useRobotSettings';

/** The robot's synonym groups as an editable list: add and remove groups and their words. */
export function SynonymsCard({ form }: { form: SettingsForm }) {
  const { t } = useI18n();
  const groups = form.draft.synonyms;
  const listError = form.errorOf('synonyms');
  return (
    <SettingsCard
      id="settings-synonyms"
      title={t('settings.synonyms')}
      aside={<span className="muted">{t('settings.groupCount', { count: groups.length })}</span>}
    >
      <p className="form-intro">{t('settings.synonymsIntro')}</p>
      {groups.length === 0 ? (
        <p className="hint">{t('settings.noSynonyms')}</p>
      ) : (
        <ol className="synonym-groups" aria-label={t('settings.synonyms')}>
          {groups.map((group, g) => (
            <SynonymGroup key={g} form={form} group={group} index={g} />
          ))}
        </ol>
      )}
      {listError ? (
        <p className="field-error" role="alert">
          {listError}
        </p>
      ) : null}
      <div>
        <button type="button" className="button" onClick={form.synonyms.addGroup}>
          + {t('settings.addGroup')}
        </button>
      </div>
    </SettingsCard>
  );
}

function SynonymGroup({
  form,
  group,
  index: g,
}: {
  form: SettingsForm;
  group: string[];
  index: number;
}) {
  const { t } = useI18n();
  const n = g + 1;
  const groupError = form.errorOf(`synonyms[${g}]`);
  const memberErrors = group.flatMap((_, m) => form.errorOf(`synonyms[${g}][${m}]`) ?? []);
  return (
    <li className="synonym-group" aria-label={t('settings.synonymGroupN', { n })}>
      <span className="synonym-group-number" aria-hidden="true">
        {n}
      </span>
      <div className="synonym-members">
        {group.map((member, m) => {
          const label = t('settings.synonymMemberN', { group: n, n: m + 1 });
          const invalid = form.errorOf(`synonyms[${g}][${m}]`) !== null;
          return (
            <span key={m} className={invalid ? 'synonym-member invalid' : 'synonym-member'}>
              <input
                value={member}
                aria-label={label}
                aria-invalid={invalid || undefined}
                onChange={(event) => form.synonyms.setMember(g, m, event.target.value)}
                size={Math.max(6, Array.from(member).length + 1)}
              />
              <button
                type="button"
                className="icon-button"
                aria-label={t('settings.removeMember', { group: n, n: m + 1 })}
                title={t('settings.removeMember', { group: n, n: m + 1 })}
                onClick={() => form.synonyms.removeMember(g, m)}
              >
                ×
              </button>
            </span>
          );
        })}
        <button
          type="button"
          className="button button-small"
          aria-label={t('settings.addMemberTo', { n })}
          onClick={() => form.synonyms.addMember(g)}
        >
          + {t('settings.addMember')}
        </button>
      </div>
      <button
        type="button"
        className="button button-small"
        aria-label={t('settings.removeGroup', { n })}
        onClick={() => form.synonyms.removeGroup(g)}
      >
        {t('settings.removeGroupShort')}
      </button>
      {groupError || memberErrors.length > 0 ? (
        <p className="field-error synonym-error" role="alert">
          {[groupError, ...memberErrors].filter(Boolean).join(' ')}
        </p>
      ) : null}
    </li>
  );
}
