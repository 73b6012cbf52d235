import { useId, useState } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Spinner } from '../../components/Spinner';
import { useI18n } from '../../i18n/useI18n';
import type { FileError } from './useImport';

export function ImportPick({
  parsing,
  error,
  onFile,
  onTemplate,
}: {
  parsing: string | null;
  error: FileError | null;
  onFile: (file: File) => void;
  onTemplate: () => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const [over, setOver] = useState(false);
  if (parsing) return <Spinner label={t('import.parsing', { file: parsing })} />;
  return (
    <div className="import-pick">
      <label
        htmlFor={id}
        className={over ? 'drop-zone drop-zone-over' : 'drop-zone'}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault();
          setOver(false);
          const file = event.dataTransfer.files[0];
          if (file) onFile(file);
        }}
      >
        <strong>{t('import.choose')}</strong>
        <span>{t('import.chooseHint')}</span>
      </label>
      <input
        id={id}
        type="file"
        className="visually-hidden"
        accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
        aria-label={t('import.choose')}
        data-testid="import-file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) onFile(file);
        }}
      />
      {error ? (
        <ErrorMessage>
          {t(error.reason === 'empty' ? 'import.emptyFile' : 'import.unreadable', {
            file: error.fileName,
          })}
        </ErrorMessage>
      ) : null}
      <p className="hint">
        {t('import.layoutHint')}{' '}
        <button type="button" className="link-button" onClick={onTemplate}>
          {t('export.template')}
        </button>
      </p>
    </div>
  );
}
