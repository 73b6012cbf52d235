import type { TryResult } from '../../../electron/service/console-types';
import { useI18n } from '../../i18n/useI18n';

/**
 * What the API answered, as JSON, and the parts of each candidate's score: for whoever wants
 * the mechanics, one click away from the answer.
 */
export function TryDetails({ result }: { result: TryResult }) {
  const { t, formatNumber } = useI18n();
  const parts = [...new Set(result.candidates.flatMap((c) => Object.keys(c.parts)))];
  const number = (value: number) => formatNumber(value, { maximumFractionDigits: 4 });
  return (
    <details className="try-details" data-testid="try-details">
      <summary>{t('try.details')}</summary>
      <h4>{t('try.rawJson')}</h4>
      <pre className="try-json">{JSON.stringify(result.result, null, 2)}</pre>
      {result.candidates.length > 0 ? (
        <>
          <h4>{t('try.scoreParts')}</h4>
          <div className="try-parts-scroll">
            <table className="table try-parts">
              <thead>
                <tr>
                  <th>{t('rules.col.ruleName')}</th>
                  <th className="numeric">{t('try.scoreColumn')}</th>
                  {parts.map((part) => (
                    <th key={part} className="numeric">
                      <code>{part}</code>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {result.candidates.map((candidate) => (
                  <tr key={candidate.ruleId}>
                    <td>{candidate.ruleName}</td>
                    <td className="numeric">{number(candidate.score)}</td>
                    {parts.map((part) => (
                      <td key={part} className="numeric">
                        {candidate.parts[part] === undefined ? '' : number(candidate.parts[part])}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </details>
  );
}
