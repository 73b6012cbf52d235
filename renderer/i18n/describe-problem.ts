/**
 * Problems as sentences in the user's language, each naming the field as the form labels it
 * ("Answer must not be empty.", "第 11 行的「答案」不能为空。").
 * @module
 */
import {
  MAIL_PATTERN,
  PHONE_PATTERN,
  USERNAME_PATTERN,
} from '../../electron/service/validation/schemas';
import { fieldBase, fieldDepth, fieldLabel } from './field-labels';
import type { Problem } from '../api/problem';
import { problemOfError } from './server-problem';
import type { MessageKey, Translate } from './types';

const PATTERNS: Record<string, MessageKey> = {
  [USERNAME_PATTERN]: 'validation.username',
  [PHONE_PATTERN]: 'validation.phone',
  [MAIL_PATTERN]: 'validation.mail',
  '\\S': 'validation.blank',
};

/** The sentence of each error code of the service (a unit test checks none is missing). */
export const CODES: Record<string, MessageKey> = {
  'menu-target': 'errors.menuTarget',
  'username-taken': 'errors.usernameTaken',
  'rule-not-found': 'errors.ruleNotFound',
  'category-name-taken': 'errors.categoryNameTaken',
  'category-not-found': 'errors.categoryNotFound',
  'robot-not-found': 'errors.robotNotFound',
  'tenant-not-found': 'errors.tenantNotFound',
  'user-not-found': 'errors.userNotFound',
  'body-too-large': 'errors.tooLarge',
  'batch-too-large': 'errors.tooLarge',
  'network-error': 'errors.network',
  'bad-console-token': 'errors.token',
  'storage-failure': 'errors.storage',
  'internal-error': 'errors.internal',
  'missing-auth-param': 'errors.signature',
  'malformed-auth-param': 'errors.signature',
  'unknown-adminkey': 'errors.signature',
  'customer-mismatch': 'errors.signature',
  'stale-timestamp': 'errors.signature',
  'bad-signature': 'errors.signature',
  'replayed-nonce': 'errors.signature',
  'nothing-to-publish': 'errors.nothingToPublish',
  'nothing-to-discard': 'errors.nothingToDiscard',
  'publish-blocked': 'errors.publishBlocked',
  'publish-impact-too-large': 'errors.publishImpactTooLarge',
  'version-not-found': 'errors.versionNotFound',
  'malformed-json': 'errors.badRequest',
  'malformed-request': 'errors.badRequest',
  'malformed-url': 'errors.badRequest',
  'missing-field': 'errors.badRequest',
  'invalid-field': 'errors.badRequest',
  'invalid-paging': 'errors.badRequest',
  'path-param-too-long': 'errors.badRequest',
  'bad-content-type': 'errors.badRequest',
  'headers-too-large': 'errors.badRequest',
  'route-not-found': 'errors.badRequest',
  'request-timeout': 'errors.timeout',
  'sign-in-failed': 'errors.signInFailed',
  'not-signed-in': 'errors.session',
  'session-expired': 'errors.session',
  'too-many-sign-ins': 'errors.tooManySignIns',
  'host-not-allowed': 'errors.host',
  'other-tenant': 'errors.forbidden',
  'loopback-only': 'errors.loopbackOnly',
  'session-not-found': 'errors.sessionNotFound',
  'storage-unavailable': 'errors.storageUnavailable',
  'customer-only': 'errors.forbidden',
  'test-case-not-found': 'errors.testCaseNotFound',
  'test-run-not-found': 'errors.testRunNotFound',
  'impact-job-not-found': 'errors.impactJobNotFound',
  'rule-exists': 'errors.ruleExists',
  'tenant-exists': 'errors.tenantExists',
  'rule-name-taken': 'errors.ruleNameTaken',
};

/** The sentence's key and count for a validation keyword; null when it is not one. */
function validationKey(problem: Problem): [MessageKey, number?] | null {
  const limit = Number(problem.params.limit ?? 0);
  const base = fieldBase(problem.field);
  const depth = fieldDepth(problem.field);
  switch (problem.keyword) {
    case 'required':
      return ['validation.required'];
    case 'minLength':
      return limit <= 1 ? ['validation.empty'] : ['validation.minLength', limit];
    case 'maxLength':
      return ['validation.maxLength', limit];
    case 'minItems':
      if (base === 'synonyms' && depth === 1) return ['validation.minSynonyms', limit];
      return limit <= 1 ? ['validation.empty'] : ['validation.minItems', limit];
    case 'maxItems':
      if (base === 'questions') return ['validation.maxQuestions', limit];
      if (base === 'synonyms') {
        return depth === 1 ? ['validation.maxSynonyms', limit] : ['validation.maxGroups', limit];
      }
      return ['validation.maxItems', limit];
    case 'pattern':
      return [PATTERNS[String(problem.params.pattern)] ?? 'validation.format'];
    case 'date':
      return ['validation.date'];
    case 'date-order':
      return ['validation.dateOrder'];
    case 'not-above':
      return ['validation.notAbove'];
    case 'active':
      return ['validation.active'];
    case 'wellFormed':
      return ['validation.wellFormed'];
    case 'type':
      return [problem.params.type === 'integer' ? 'validation.integer' : 'validation.number'];
    case 'minimum':
    case 'exclusiveMinimum':
      return ['validation.minimum'];
    case 'maximum':
    case 'exclusiveMaximum':
      return ['validation.maximum'];
    case 'anyOf':
      return ['validation.userChange'];
    case 'invalid':
    case 'const':
    case 'invalid-field':
    case 'missing-field':
      return ['validation.invalid'];
    default:
      return null;
  }
}

function subjectOf(t: Translate, field: string | undefined, row: number | undefined): string {
  const label = fieldLabel(t, field);
  if (label === null) {
    return row === undefined
      ? t('problem.unknownSubject')
      : t('problem.unknownSubjectInRow', { row });
  }
  return row === undefined
    ? t('problem.subject', { field: label })
    : t('problem.subjectInRow', { field: label, row });
}

/**
 * A problem as one sentence naming its field; `row` (the spreadsheet's row number) puts the row
 * in it too.
 */
export function describeProblem(t: Translate, problem: Problem, row?: number): string {
  const validation = validationKey(problem);
  if (validation) {
    const [key, count] = validation;
    const other = typeof problem.params.other === 'string' ? problem.params.other : undefined;
    return t(key, {
      subject: subjectOf(t, problem.field, row),
      ...(count !== undefined ? { count } : {}),
      ...(problem.params.limit !== undefined ? { limit: Number(problem.params.limit) } : {}),
      ...(other !== undefined ? { other: fieldLabel(t, other) ?? '' } : {}),
      ...(problem.params.value !== undefined ? { value: String(problem.params.value) } : {}),
    });
  }
  let message: string;
  if (problem.keyword === 'duplicate-in-file') {
    message = t('errors.duplicateInFile', {
      name: String(problem.params.name ?? ''),
      row: Number(problem.params.row ?? 0),
    });
  } else if (problem.keyword === 'publish-impact-too-large') {
    message = t('errors.publishImpactTooLarge', {
      percent: Number(problem.params.percent ?? 0),
      limit: Number(problem.params.limit ?? 0),
    });
  } else if (problem.keyword === 'rule-name-taken') {
    message =
      typeof problem.params.name === 'string'
        ? t('errors.ruleNameTakenNamed', { name: problem.params.name })
        : t('errors.ruleNameTaken');
  } else {
    const key = CODES[problem.keyword];
    message = key ? t(key) : t('errors.unexpected', { code: problem.keyword });
  }
  return row === undefined ? message : t('problem.inRow', { row, message });
}

/** A failed call in the user's language. */
export function describeError(t: Translate, error: unknown): string {
  return describeProblem(t, problemOfError(error));
}
