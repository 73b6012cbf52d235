/**
 * Fields as the forms label them: a message about `phoneNumber` says "Phone number", one about
 * `questions[2]` says "Question 3". The API's names never reach the user.
 * @module
 */
import type { MessageKey, Translate } from './types';

const LABELS: Record<string, MessageKey> = {
  company: 'tenant.company',
  username: 'user.username',
  password: 'user.password',
  phoneNumber: 'tenant.phoneNumber',
  mail: 'tenant.mail',
  name: 'robot.nameField',
  ruleName: 'rules.col.ruleName',
  questions: 'rules.col.questions',
  answer: 'rules.col.answer',
  ruleCategoryId: 'rules.col.category',
  categoryName: 'rules.col.category',
  categoryId: 'rules.col.category',
  category: 'rules.col.category',
  active: 'field.active',
  effectBeignDate: 'field.effectiveFrom',
  effectEndDate: 'field.effectiveUntil',
  question: 'try.question',
  fallbackText: 'settings.fallbackText',
  recommendText: 'settings.recommendText',
  bestmatchThreshold: 'settings.bestmatchThreshold',
  recommendThreshold: 'settings.recommendThreshold',
  margin: 'settings.margin',
  maxRecommend: 'settings.maxRecommend',
  synonyms: 'settings.synonyms',
  language: 'settings.language',
};

/** The label of a field (`questions[2]` → "Question 3"), or null for a field no form shows. */
export function fieldLabel(t: Translate, field: string | undefined): string | null {
  if (!field) return null;
  const match = /^(\w+)((?:\[\d+\])*)$/.exec(field.replace(/^settings\./, ''));
  if (!match?.[1]) return null;
  const [base, indexes] = [
    match[1],
    [...(match[2] ?? '').matchAll(/\d+/g)].map((m) => Number(m[0]) + 1),
  ];
  if (base === 'questions' && indexes.length === 1)
    return t('rules.questionN', { n: indexes[0] ?? 1 });
  if (base === 'synonyms' && indexes.length === 1) {
    return t('settings.synonymGroupN', { n: indexes[0] ?? 1 });
  }
  if (base === 'synonyms' && indexes.length === 2) {
    return t('settings.synonymMemberN', { group: indexes[0] ?? 1, n: indexes[1] ?? 1 });
  }
  const key = indexes.length === 0 ? LABELS[base] : undefined;
  return key ? t(key) : null;
}

/** The base of a field path: `questions[2]` → `questions`. */
export function fieldBase(field: string | undefined): string | undefined {
  return field?.replace(/^settings\./, '').replace(/\[.*$/, '');
}

/** How many indexes a field path has: `synonyms[0][1]` → 2. */
export function fieldDepth(field: string | undefined): number {
  return field ? (field.match(/\[\d+\]/g) ?? []).length : 0;
}
