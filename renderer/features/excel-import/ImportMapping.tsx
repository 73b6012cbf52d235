import { LIMITS } from '../../../electron/service/limits';
import { describeProblem } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';
import { COLUMN_ROLES, missingRoles } from './column-mapping';
import type { ColumnRole, Mapping } from './column-mapping';
import type { ImportRow } from './import-rows';
import type { PlainSheet } from '../../lib/sheets/sheet-messages';

const PREVIEW_ROWS = 6;
const LISTED_PROBLEMS = 50;

export function ImportMapping({
  fileName,
  sheets,
  sheetIndex,
  mapping,
  rows,
  batchSize,
  onSheet,
  onMapping,
  onBatchSize,
}: {
  fileName: string;
  sheets: PlainSheet[];
  sheetIndex: number;
  mapping: Mapping;
  rows: ImportRow[];
  batchSize: number;
  onSheet: (index: number) => void;
  onMapping: (mapping: Mapping) => void;
  onBatchSize: (size: number) => void;
}) {
  const { t } = useI18n();
  const sheetRows = sheets[sheetIndex]?.rows ?? [];
  const header = mapping.hasHeader ? (sheetRows[0] ?? []) : [];
  const samples = sheetRows.slice(
    mapping.hasHeader ? 1 : 0,
    (mapping.hasHeader ? 1 : 0) + PREVIEW_ROWS,
  );
  const invalid = rows.filter((row) => row.problem !== null);
  const missing = missingRoles(mapping);

  const setRole = (column: number, role: ColumnRole) =>
    onMapping({ ...mapping, roles: mapping.roles.map((r, i) => (i === column ? role : r)) });

  return (
    <div className="import-map">
      <div className="import-options">
        <span className="file-name">{fileName}</span>
        {sheets.length > 1 ? (
          <label className="inline-field">
            <span>{t('import.sheet')}</span>
            <select value={sheetIndex} onChange={(event) => onSheet(Number(event.target.value))}>
              {sheets.map((sheet, i) => (
                <option key={i} value={i}>
                  {sheet.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label className="inline-field">
          <input
            type="checkbox"
            checked={mapping.hasHeader}
            onChange={(event) => onMapping({ ...mapping, hasHeader: event.target.checked })}
          />
          <span>{t('import.hasHeader')}</span>
        </label>
        {/* A technical knob (rules sent per request): out of the way unless asked for. */}
        <details className="import-advanced">
          <summary>{t('import.advanced')}</summary>
          <label className="inline-field">
            <span>{t('import.batchSize')}</span>
            <input
              type="number"
              min={1}
              max={LIMITS.rulesPerBatch}
              value={batchSize}
              className="number-input"
              onChange={(event) => {
                const size = Math.round(Number(event.target.value));
                if (size >= 1 && size <= LIMITS.rulesPerBatch) onBatchSize(size);
              }}
            />
          </label>
        </details>
      </div>

      <div className="preview-scroll">
        <table className="table preview-table" aria-label={t('import.preview')}>
          <thead>
            <tr>
              {mapping.roles.map((role, i) => (
                <th key={i}>
                  <div className="preview-header">
                    {header[i] || t('sheet.column', { n: i + 1 })}
                  </div>
                  <select
                    aria-label={t('import.columnRole', { n: i + 1 })}
                    value={role}
                    onChange={(event) => setRole(i, event.target.value as ColumnRole)}
                  >
                    {COLUMN_ROLES.map((option) => (
                      <option key={option} value={option}>
                        {t(`import.role.${option}`)}
                      </option>
                    ))}
                  </select>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {samples.map((row, r) => (
              <tr key={r}>
                {mapping.roles.map((_, c) => (
                  <td key={c}>
                    <span className="preview-cell">{row[c] ?? ''}</span>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <p className="import-summary" data-testid="import-summary">
        {t('import.summary', {
          count: rows.length,
          ready: rows.length - invalid.length,
          invalid: invalid.length,
        })}
      </p>
      {missing.length > 0 ? (
        <p className="field-error" role="alert">
          {t('import.missingRoles', {
            roles: missing.map((role) => t(`import.role.${role}`)).join(', '),
          })}
        </p>
      ) : null}
      {invalid.length > 0 ? (
        <ul className="problem-list" aria-label={t('import.problems')}>
          {invalid.slice(0, LISTED_PROBLEMS).map((row) => (
            <li key={row.sheetRow}>
              {row.problem ? describeProblem(t, row.problem, row.sheetRow) : ''}
            </li>
          ))}
          {invalid.length > LISTED_PROBLEMS ? (
            <li className="muted">
              {t('import.moreProblems', { count: invalid.length - LISTED_PROBLEMS })}
            </li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}
