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
  message: string;
}

const isDate = (value: string) => ISO.test(value) && !Number.isNaN(Date.parse(value));

/** The problems of a window: each invalid date, else an end before the beginning; [] if valid. */
export function effectiveWindowProblems(begin: string | null, end: string | null): WindowProblem[] {
  const problems: WindowProblem[] = [];
  for (const [field, value] of [
    ['effectBeignDate', begin],
    ['effectEndDate', end],
  ] as const) {
    if (value !== null && !isDate(value)) {
      problems.push({ field, keyword: 'date', message: `${field} is not a valid date.` });
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
      message: 'effectEndDate must not be before effectBeignDate.',
    });
  }
  return problems;
}
