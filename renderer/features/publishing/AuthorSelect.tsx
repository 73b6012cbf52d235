import { actorLabel } from '../../i18n/actor-label';
import { useI18n } from '../../i18n/useI18n';

/** Who a version is credited to: an administrator of the tenant, or the API. */
export function AuthorSelect({
  authors,
  value,
  onChange,
}: {
  authors: string[];
  value: string;
  onChange: (author: string) => void;
}) {
  const { t } = useI18n();
  return (
    <label>
      {t('publishing.author')}{' '}
      <select
        aria-label={t('publishing.author')}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        {authors.map((name) => (
          <option key={name} value={name}>
            {actorLabel(t, name)}
          </option>
        ))}
      </select>
    </label>
  );
}
