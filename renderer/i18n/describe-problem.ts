import type { FieldProblem } from '../api/field-check';
import {
  MAIL_PATTERN,
  PHONE_PATTERN,
  USERNAME_PATTERN,
} from '../../electron/service/validation/schemas';
import type { Locale, Translate } from './types';

/**
 * A validation problem in the user's language: the server's own sentence in English, a
 * translation built from the Ajv keyword otherwise.
 */
export function describeProblem(locale: Locale, t: Translate, problem: FieldProblem): string {
  if (locale === 'en') return problem.message;
  const limit = Number(problem.params.limit ?? 0);
  switch (problem.keyword) {
    case 'required':
      return t('validation.required');
    case 'minLength':
      return limit <= 1 ? t('validation.empty') : t('validation.minLength', { limit });
    case 'maxLength':
      return t('validation.maxLength', { limit });
    case 'minItems':
      return t('validation.minItems', { limit });
    case 'maxItems':
      return t('validation.maxItems', { limit });
    case 'pattern': {
      const pattern = String(problem.params.pattern);
      if (pattern === USERNAME_PATTERN) return t('validation.username');
      if (pattern === PHONE_PATTERN) return t('validation.phone');
      if (pattern === MAIL_PATTERN) return t('validation.mail');
      if (pattern === '\\S') return t('validation.blank');
      return t('validation.format');
    }
    case 'date':
      return t('validation.date');
    case 'active':
      return t('validation.active');
    case 'date-order':
      return t('validation.dateOrder');
    default:
      return t('validation.invalid');
  }
}

const CODE_MESSAGES: Partial<Record<string, Parameters<Translate>[0]>> = {
  'username-taken': 'errors.usernameTaken',
  'rule-name-taken': 'errors.ruleNameTaken',
  'network-error': 'errors.network',
  'bad-console-token': 'errors.token',
  'storage-failure': 'errors.storage',
  'internal-error': 'errors.internal',
};

/** A failed call in the user's language: the server's sentence, or a translation of its code. */
export function describeError(locale: Locale, t: Translate, error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const key = typeof code === 'string' ? CODE_MESSAGES[code] : undefined;
  if (key && (locale !== 'en' || code === 'network-error')) return t(key);
  return message;
}
