/**
 * A rule's effective window (effectBeignDate, effectEndDate): each an ISO 8601 date-time with an
 * offset or null, the end not before the beginning. One rule for the service and the editor.
 * @module
 */

/** ISO 8601 date-time with an explicit offset (contract.md, "Times in rule fields"). */
export const ISO_WITH_OFFSET =
  '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d{1,3})?)?(?:Z|[+-]\\d{2}:\\d{2})$';

const ISO = new RegExp(ISO_WITH_OFFSET);

export interface WindowProblem {
  field: 'effectBeignDate' | 'effectEndDate';
  /** `date`: not a date-time with an offset; `date-order`: the end is before the beginning. */
  keyword: 'date' | 'date-order';
  /** For `date-order`, the field it must not be before (`other`). */
  params: { other?: 'effectBeignDate' };
  message: string;
}

/**
 * A date-time that exists: the pattern, a time Date can read, and a day of its month (Date.parse
 * reads 2024-02-30 as 1 March, which the rule would then keep as sent while meaning another day).
 */
export function isIsoDate(value: string): boolean {
  if (!ISO.test(value) || Number.isNaN(Date.parse(value))) return false;
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const lastDay = new Date(Date.UTC(2000, month, 0)).getUTCDate();
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day >= 1 && day <= (month === 2 && !leap ? 28 : lastDay);
}

/** The problems of a window: each invalid date, else an end before the beginning; [] if valid. */
export function effectiveWindowProblems(begin: string | null, end: string | null): WindowProblem[] {
  const problems: WindowProblem[] = [];
  for (const [field, value] of [
    ['effectBeignDate', begin],
    ['effectEndDate', end],
  ] as const) {
    if (value !== null && !isIsoDate(value)) {
      problems.push({
        field,
        keyword: 'date',
        params: {},
        message: `${field} is not a valid date.`,
      });
    }
  }
  if (
    problems.length === 0 &&
    begin !== null &&
    end !== null &&
    Date.parse(begin) > Date.parse(end)
  ) {
    problems.push({
      field: 'effectEndDate',
      keyword: 'date-order',
      params: { other: 'effectBeignDate' },
      message: 'effectEndDate must not be before effectBeignDate.',
    });
  }
  return problems;
}
