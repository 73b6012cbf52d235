import type { I18n } from '../../i18n/i18n-context';

/** A score to two decimals; a small score that would read 0 reads "< 0.01". */
export function formatScore(score: number, formatNumber: I18n['formatNumber']): string {
  if (score > 0 && score < 0.005) return `< ${formatNumber(0.01)}`;
  return formatNumber(score, { maximumFractionDigits: 2 });
}
