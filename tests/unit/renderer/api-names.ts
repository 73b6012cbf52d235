/** The list of API names that user-facing text must not contain, and the check. */

/**
 * Names of the API that must not reach a content editor: request and response fields, enum
 * values, scoring internals. Each is matched as a whole word, case-sensitively (`mail` is a field
 * name, `e-mail` and `Mail` are words).
 */
export const API_FIELD_NAMES = [
  'phoneNumber',
  'mail',
  'username',
  'ruleName',
  'ruleCategoryId',
  'effectBeignDate',
  'effectEndDate',
  'allowSimGen',
  'answerType',
  'answerContentType',
  'questionType',
  'module',
  'items',
  'robotId',
  'robotSecret',
  'robotsecret',
  'tenantId',
  'userId',
  'customerId',
  'adminkey',
  'adminKey',
  'adminsecret',
  'adminSecret',
  'bestmatchThreshold',
  'recommendThreshold',
  'maxRecommend',
  'recommendText',
  'fallbackText',
  'synonyms',
  'naiveBayes',
  'posterior',
  'failInfo',
  'totalCount',
  'pageSize',
  'BESTMATCH',
  'RECOMMEND',
  'MENU',
  'null',
  'undefined',
  'NaN',
];

/** The API names a text contains, as whole words. */
export function apiNamesIn(text: string): string[] {
  return API_FIELD_NAMES.filter((name) => new RegExp(`(?<![\\w-])${name}(?![\\w-])`).test(text));
}
