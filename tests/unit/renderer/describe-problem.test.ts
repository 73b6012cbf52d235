import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TSchema } from '@sinclair/typebox';
import { check, createAjv } from '../../../electron/service/validation/ajv';
import { RobotPatchBody } from '../../../electron/service/validation/console-schemas';
import { failureOf, RequestValidationError } from '../../../electron/service/http/failures';
import {
  AddUserBody,
  RegisterTenantBody,
  RuleInputSchema,
} from '../../../electron/service/validation/schemas';
import { ApiError } from '../../../renderer/api/api-error';
import type { ApiProblem } from '../../../renderer/api/api-error';
import { checkRule } from '../../../renderer/lib/rules/rule-checks';
import { EMPTY_RULE } from '../../../renderer/lib/rules/grid-row';
import { describeError, describeProblem } from '../../../renderer/i18n/describe-problem';
import { formatMessage } from '../../../renderer/i18n/format-message';
import {
  problemOfBatchFailure,
  problemOfError,
  problemsOfError,
  readSentence,
} from '../../../renderer/i18n/server-problem';
import type { Locale, Translate } from '../../../renderer/i18n/types';
import { LOCALES } from '../../../renderer/i18n/types';
import { apiNamesIn } from './api-names';

const tr =
  (locale: Locale): Translate =>
  (key, params) =>
    formatMessage(locale, key, params);
const en = tr('en');
const zh = tr('zh-CN');

const ajv = createAjv();
const valid = {
  username: 'admin_01',
  password: 'secret123',
  phoneNumber: '13800138000',
  mail: 'a@example.com',
  company: 'Acme',
};
const rule = { ruleName: 'R', questions: ['q'], answerContentType: 'TEXT', answer: 'a' };

/** Bodies the service refuses, with the field it names and the label the editor must show. */
const REFUSED: [TSchema, unknown, string, string, string][] = [
  // schema, body, Ajv keyword, English label, Chinese label
  [RegisterTenantBody, { ...valid, username: 'a' }, 'minLength', 'User name', '用户名'],
  [RegisterTenantBody, { ...valid, username: 'a b' }, 'pattern', 'User name', '用户名'],
  [RegisterTenantBody, { ...valid, password: '123' }, 'minLength', 'Password', '密码'],
  [RegisterTenantBody, { ...valid, phoneNumber: '12345' }, 'pattern', 'Phone number', '手机号'],
  [RegisterTenantBody, { ...valid, mail: 'not-a-mail' }, 'pattern', 'E-mail', '邮箱'],
  [RegisterTenantBody, { ...valid, company: '   ' }, 'pattern', 'Company', '公司名称'],
  [RegisterTenantBody, { ...valid, company: undefined }, 'required', 'Company', '公司名称'],
  [
    AddUserBody,
    { username: 'admin_02', password: 'x'.repeat(16), role: 'ADMIN' },
    'maxLength',
    'Password',
    '密码',
  ],
  [RuleInputSchema, { ...rule, ruleName: 'N'.repeat(201) }, 'maxLength', 'Rule name', '规则名称'],
  [RuleInputSchema, { ...rule, questions: [] }, 'minItems', 'Questions', '问题'],
  [RuleInputSchema, { ...rule, questions: Array(11).fill('q') }, 'maxItems', 'Questions', '问题'],
  [RuleInputSchema, { ...rule, questions: ['q', ''] }, 'minLength', 'Question 2', '问题 2'],
  [RuleInputSchema, { ...rule, answer: '' }, 'minLength', 'Answer', '答案'],
];

test('the service’s validation sentences are read back to their Ajv keyword', () => {
  for (const [schema, body, keyword] of REFUSED) {
    const problem = check(ajv.compile(schema), body);
    assert.ok(problem, JSON.stringify(body));
    assert.equal(readSentence(problem.message).keyword, keyword, problem.message);
  }
});

test('a refusal of the console API is said with the field’s label, in both languages', () => {
  for (const [schema, body, , enLabel, zhLabel] of REFUSED) {
    const problem = check(ajv.compile(schema), body);
    assert.ok(problem);
    const error = new ApiError(400, problem.code, problem.message, problem.field);
    const english = describeError(en, error);
    const chinese = describeError(zh, error);
    assert.ok(english.startsWith(enLabel), `"${english}" names ${enLabel}`);
    assert.ok(chinese.startsWith(`「${zhLabel}」`), `"${chinese}" names ${zhLabel}`);
    assert.deepEqual(apiNamesIn(english), [], english);
    assert.deepEqual(apiNamesIn(chinese), [], chinese);
    assert.match(english, /\.$/);
    assert.match(chinese, /。$/);
  }
});

/**
 * Robot settings the service refuses (each is its value or null, back to its default, as Ajv's
 * `nullable`, so the refusal names the value's own rule): the editor names the setting, or the
 * synonym group, as the form labels it. The form checks every value before sending
 * (settings-form.test.ts), so these are said only when the two disagree.
 */
const REFUSED_SETTINGS: [unknown, string, string][] = [
  [{ settings: { bestmatchThreshold: 2 } }, 'Best-match threshold', '最佳匹配阈值'],
  [{ settings: { margin: -1 } }, 'Lead over the runner-up', '领先第二名的差距'],
  [{ settings: { maxRecommend: 1.5 } }, 'Number of suggestions', '推荐数量'],
  [{ settings: { fallbackText: '' } }, 'Fallback text', '兜底话术'],
  [{ settings: { synonyms: [['充值']] } }, 'Synonym group 1', '同义词组 1'],
  [{ settings: { language: 'fr' } }, 'Language', '语言'],
];

test('a refusal of a robot setting names the setting, in both languages', () => {
  for (const [body, enLabel, zhLabel] of REFUSED_SETTINGS) {
    const problem = check(ajv.compile(RobotPatchBody), body);
    assert.ok(problem, JSON.stringify(body));
    const error = new ApiError(400, problem.code, problem.message, problem.field);
    const english = describeError(en, error);
    const chinese = describeError(zh, error);
    assert.ok(english.startsWith(enLabel), `"${english}" names ${enLabel}`);
    assert.ok(chinese.startsWith(`「${zhLabel}」`), `"${chinese}" names ${zhLabel}`);
    assert.deepEqual(apiNamesIn(english), [], english);
    assert.deepEqual(apiNamesIn(chinese), [], chinese);
  }
});

/** The envelope the service answers for a body refused by `schema` (every problem collected). */
function refusal(schema: TSchema, body: unknown): ApiError {
  const validate = createAjv().compile(schema);
  assert.equal(validate(body), false);
  const failure = failureOf(new RequestValidationError(validate.errors ?? [], 'body'), true);
  const envelope = failure?.body as {
    code: string;
    msg: string;
    data: { field?: string } | null;
    errors: ApiProblem[];
  };
  return new ApiError(400, envelope.code, envelope.msg, envelope.data?.field, envelope.errors);
}

test('a body refused for several problems is said by its first, without the count of the others', () => {
  const error = refusal(RegisterTenantBody, { ...valid, username: 'a', mail: 'x', company: '' });
  assert.match(error.message, /more problems are listed in errors/);
  assert.equal(describeError(en, error), 'User name must be at least 2 characters long.');
  assert.equal(describeError(zh, error), '「用户名」至少需要 2 个字符。');
});

test('every problem of a body refused for several is said, each naming its field', () => {
  const error = refusal(RegisterTenantBody, { ...valid, username: 'a', mail: 'x', company: '' });
  const said = (t: Translate) => problemsOfError(error).map((p) => describeProblem(t, p));
  assert.deepEqual(said(en), [
    'User name must be at least 2 characters long.',
    'E-mail must be an e-mail address such as name@example.com.',
    'Company must not be empty.',
  ]);
  for (const sentence of said(zh)) assert.match(sentence, /^「(用户名|邮箱|公司名称)」/);
});

test('text that is not well-formed is said as a broken character, naming the field', () => {
  const error = refusal(RegisterTenantBody, { ...valid, company: 'Acme \ud800' });
  const english = describeError(en, error);
  const chinese = describeError(zh, error);
  assert.ok(english.startsWith('Company holds a broken character'), english);
  assert.ok(chinese.startsWith('「公司名称」含有残缺的字符'), chinese);
});

test('limits are said with the right grammar', () => {
  const sentence = (body: unknown) => {
    const problem = check(ajv.compile(RuleInputSchema), body);
    assert.ok(problem);
    return describeError(en, new ApiError(400, problem.code, problem.message, problem.field));
  };
  assert.equal(sentence({ ...rule, answer: '' }), 'Answer must not be empty.');
  assert.equal(sentence({ ...rule, questions: [] }), 'Questions must not be empty.');
  assert.equal(
    sentence({ ...rule, ruleName: 'N'.repeat(201) }),
    'Rule name must be at most 200 characters long.',
  );
  assert.equal(
    describeProblem(en, { field: 'password', keyword: 'minLength', params: { limit: 6 } }),
    'Password must be at least 6 characters long.',
  );
  assert.equal(
    describeProblem(en, { field: 'ruleName', keyword: 'maxLength', params: { limit: 1 } }),
    'Rule name must be at most 1 character long.',
  );
});

test('rows of an import keep the field in both languages', () => {
  const problem = problemOfBatchFailure(
    'invalid-field',
    'answer must be at least 1 characters long.',
    'R',
  );
  assert.equal(describeProblem(zh, problem, 11), '第 11 行的「答案」不能为空。');
  assert.equal(describeProblem(en, problem, 11), 'Row 11: Answer must not be empty.');
  assert.equal(describeProblem(zh, problem), '「答案」不能为空。');
  const taken = problemOfBatchFailure(
    'rule-name-taken',
    'A rule named "r" already exists in this robot.',
    'R ',
  );
  assert.equal(describeProblem(en, taken), 'A rule named “R” already exists in this robot.');
  assert.equal(describeProblem(zh, taken, 16), '第 16 行：此机器人中已有名为「R」的规则。');
});

test('the editor’s own checks of a rule are said without API names', () => {
  const problems = Object.values(
    checkRule({
      ...EMPTY_RULE,
      effectBeignDate: '2030-02-01T00:00:00Z',
      effectEndDate: '2030-01-01T00:00:00Z',
    }),
  );
  assert.ok(problems.length >= 4);
  for (const locale of LOCALES) {
    for (const problem of problems) {
      const text = describeProblem(tr(locale), problem, 3);
      assert.deepEqual(apiNamesIn(text), [], text);
    }
  }
  assert.equal(
    describeProblem(en, {
      field: 'effectEndDate',
      keyword: 'date-order',
      params: { other: 'effectBeignDate' },
    }),
    'Effective until must not be before “Effective from”.',
  );
  assert.equal(
    describeProblem(zh, {
      field: 'effectEndDate',
      keyword: 'date-order',
      params: { other: 'effectBeignDate' },
    }),
    '「失效时间」不能早于「生效时间」。',
  );
});

test('service errors without a field are said in the user’s language', () => {
  assert.equal(
    describeError(
      zh,
      new ApiError(409, 'username-taken', 'The username OWNER is already taken in this tenant.'),
    ),
    '此租户中已有管理员使用该用户名。',
  );
  assert.equal(problemOfError(new ApiError(409, 'username-taken', 'x')).field, 'username');
  assert.equal(
    describeError(en, new ApiError(0, 'network-error', 'Failed to fetch')),
    'The service cannot be reached. Is it still running?',
  );
  assert.match(describeError(en, new Error('boom')), /unexpected error/);
  assert.equal(
    describeError(
      en,
      new ApiError(
        400,
        'missing-field',
        'the request body must contain at least one of username, password and role.',
      ),
    ),
    'Change the user name, the password or both.',
  );
  assert.equal(
    describeError(
      en,
      new ApiError(
        400,
        'invalid-field',
        'settings.recommendThreshold must not be above settings.bestmatchThreshold.',
        'settings.recommendThreshold',
      ),
    ),
    'Suggestion threshold must not be above “Best-match threshold”.',
  );
});
