import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TSchema } from '@sinclair/typebox';
import { ServiceError } from '../../../electron/service/errors';
import type { ErrorCode, ErrorDetail } from '../../../electron/service/errors';
import { check, createAjv } from '../../../electron/service/validation/ajv';
import { RobotPatchBody, RuleEditBody } from '../../../electron/service/validation/console-schemas';
import { failureOf, RequestValidationError } from '../../../electron/service/http/failures';
import type { Failure } from '../../../electron/service/http/failures';
import {
  AddUserBody,
  RegisterTenantBody,
  RuleInputSchema,
} from '../../../electron/service/validation/schemas';
import { ApiError, readEnvelope } from '../../../renderer/api/api-error';
import { checkRule } from '../../../renderer/lib/rules/rule-checks';
import { EMPTY_RULE } from '../../../renderer/lib/rules/grid-row';
import { describeError, describeProblem } from '../../../renderer/i18n/describe-problem';
import { formatMessage } from '../../../renderer/i18n/format-message';
import {
  problemOfBatchFailure,
  problemOfError,
  problemsOfError,
  readBatchSentence,
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
const edit = { ruleName: 'R', questions: ['q'], answer: 'a' };

/** What the editor gets for a failure: the envelope read as the console client reads it. */
async function received(failure: Failure | null): Promise<ApiError> {
  assert.ok(failure);
  const response = new Response(JSON.stringify(failure.body), { status: failure.status });
  const error = await readEnvelope(response).then(
    () => assert.fail('a failure was read as a success'),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof ApiError);
  return error;
}

/** The console API's answer to a body refused by `schema` (every problem collected). */
function consoleRefusal(schema: TSchema, body: unknown): Promise<ApiError> {
  const validate = ajv.compile(schema);
  assert.equal(validate(body), false, JSON.stringify(body));
  return received(failureOf(new RequestValidationError(validate.errors ?? [], 'body'), true));
}

/** The console API's answer to a ServiceError. */
function consoleFailure(
  code: ErrorCode,
  message: string,
  field?: string,
  detail?: ErrorDetail,
): Promise<ApiError> {
  return received(failureOf(new ServiceError(code, message, field, detail), true));
}

/** Bodies the service refuses, with the keyword it says and the label the editor must show. */
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
  [RuleEditBody, { ...edit, ruleName: 'N'.repeat(201) }, 'maxLength', 'Rule name', '规则名称'],
  [RuleEditBody, { ...edit, questions: [] }, 'minItems', 'Questions', '问题'],
  [RuleEditBody, { ...edit, questions: Array(11).fill('q') }, 'maxItems', 'Questions', '问题'],
  [RuleEditBody, { ...edit, questions: ['q', ''] }, 'minLength', 'Question 2', '问题 2'],
  [RuleEditBody, { ...edit, answer: '' }, 'minLength', 'Answer', '答案'],
];

test('a console refusal carries the field, the Ajv keyword and its params in data', async () => {
  for (const [schema, body, keyword] of REFUSED) {
    const error = await consoleRefusal(schema, body);
    assert.equal(error.keyword, keyword, error.message);
    assert.ok(error.field, error.message);
    const { params } = error;
    if (keyword === 'minLength' || keyword === 'maxLength' || keyword.endsWith('Items')) {
      assert.equal(typeof params.limit, 'number', error.message);
    }
    if (keyword === 'pattern') assert.equal(typeof params.pattern, 'string', error.message);
  }
  const tooLong = await consoleRefusal(RuleEditBody, { ...edit, ruleName: 'N'.repeat(201) });
  assert.deepEqual(
    { field: tooLong.field, keyword: tooLong.keyword, params: tooLong.params },
    { field: 'ruleName', keyword: 'maxLength', params: { limit: 200 } },
  );
});

test('a refusal of the console API is said with the field’s label, in both languages', async () => {
  for (const [schema, body, , enLabel, zhLabel] of REFUSED) {
    const error = await consoleRefusal(schema, body);
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

test('a refusal of a robot setting names the setting, in both languages', async () => {
  for (const [body, enLabel, zhLabel] of REFUSED_SETTINGS) {
    const error = await consoleRefusal(RobotPatchBody, body);
    const english = describeError(en, error);
    const chinese = describeError(zh, error);
    assert.ok(english.startsWith(enLabel), `"${english}" names ${enLabel}`);
    assert.ok(chinese.startsWith(`「${zhLabel}」`), `"${chinese}" names ${zhLabel}`);
    assert.deepEqual(apiNamesIn(english), [], english);
    assert.deepEqual(apiNamesIn(chinese), [], chinese);
  }
  const over = await consoleRefusal(RobotPatchBody, { settings: { bestmatchThreshold: 2 } });
  assert.equal(describeError(en, over), 'Best-match threshold must be at most 1.');
});

test('a body refused for several problems is said by its first, without the count of the others', async () => {
  const error = await consoleRefusal(RegisterTenantBody, {
    ...valid,
    username: 'a',
    mail: 'x',
    company: '',
  });
  assert.match(error.message, /more problems are listed in errors/);
  assert.equal(describeError(en, error), 'User name must be at least 2 characters long.');
  assert.equal(describeError(zh, error), '「用户名」至少需要 2 个字符。');
});

test('every problem of a body refused for several is said, each naming its field', async () => {
  const error = await consoleRefusal(RegisterTenantBody, {
    ...valid,
    username: 'a',
    mail: 'x',
    company: '',
  });
  assert.deepEqual(
    error.problems.map((p) => [p.field, p.keyword]),
    [
      ['username', 'minLength'],
      ['mail', 'pattern'],
      ['company', 'minLength'],
    ],
  );
  const said = (t: Translate) => problemsOfError(error).map((p) => describeProblem(t, p));
  assert.deepEqual(said(en), [
    'User name must be at least 2 characters long.',
    'E-mail must be an e-mail address such as name@example.com.',
    'Company must not be empty.',
  ]);
  for (const sentence of said(zh)) assert.match(sentence, /^「(用户名|邮箱|公司名称)」/);
});

test('text that is not well-formed is said as a broken character, naming the field', async () => {
  const error = await consoleRefusal(RegisterTenantBody, { ...valid, company: 'Acme \ud800' });
  assert.equal(error.keyword, 'wellFormed');
  const english = describeError(en, error);
  const chinese = describeError(zh, error);
  assert.ok(english.startsWith('Company holds a broken character'), english);
  assert.ok(chinese.startsWith('「公司名称」含有残缺的字符'), chinese);
});

test('a rule a field fails that the editor has no words for is said as not valid', async () => {
  const error = await consoleRefusal(RuleEditBody, { ...edit, matchPolicy: 'fuzzy' });
  assert.equal(error.keyword, 'enum');
  assert.equal(describeError(en, error), 'This value is not valid.');
});

test('limits are said with the right grammar', async () => {
  const sentence = async (body: unknown) =>
    describeError(en, await consoleRefusal(RuleEditBody, body));
  assert.equal(await sentence({ ...edit, answer: '' }), 'Answer must not be empty.');
  assert.equal(await sentence({ ...edit, questions: [] }), 'Questions must not be empty.');
  assert.equal(
    await sentence({ ...edit, ruleName: 'N'.repeat(201) }),
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

test('the service’s own checks are said by their keyword and params, in both languages', async () => {
  const order = await consoleFailure(
    'invalid-field',
    'effectEndDate must not be before effectBeignDate.',
    'effectEndDate',
    { keyword: 'date-order', params: { other: 'effectBeignDate' } },
  );
  assert.equal(describeError(en, order), 'Effective until must not be before “Effective from”.');
  assert.equal(describeError(zh, order), '「失效时间」不能早于「生效时间」。');
  const above = await consoleFailure(
    'invalid-field',
    'settings.recommendThreshold must not be above settings.bestmatchThreshold.',
    'settings.recommendThreshold',
    { keyword: 'not-above', params: { other: 'settings.bestmatchThreshold' } },
  );
  assert.equal(
    describeError(en, above),
    'Suggestion threshold must not be above “Best-match threshold”.',
  );
  const date = await consoleFailure('invalid-field', 'asOf is not a valid date.', 'asOf', {
    keyword: 'date',
  });
  assert.deepEqual(problemOfError(date), { field: 'asOf', keyword: 'date', params: {} });
});

test('a console failure says its params in data; the openapi envelope stays as it was', () => {
  const taken = new ServiceError(
    'rule-name-taken',
    'A rule named "r" already exists.',
    'ruleName',
    {
      params: { ruleName: 'r' },
    },
  );
  assert.deepEqual(failureOf(taken, true)?.body, {
    code: 'rule-name-taken',
    msg: 'A rule named "r" already exists.',
    data: { field: 'ruleName', params: { ruleName: 'r' } },
  });
  assert.deepEqual(failureOf(taken, false)?.body, {
    code: 'rule-name-taken',
    msg: 'A rule named "r" already exists.',
    data: null,
  });
  const plain = new ServiceError('robot-not-found', 'Robot r does not exist in tenant 1.');
  assert.equal((failureOf(plain, true)?.body as { data: unknown }).data, null);
  const validate = ajv.compile(RegisterTenantBody);
  validate({ ...valid, username: 'a', mail: 'x' });
  const openapi = failureOf(new RequestValidationError(validate.errors ?? [], 'body'), false);
  assert.deepEqual(openapi?.body, {
    code: 'invalid-field',
    msg: 'username must be at least 2 characters long. (1 more problem is listed in errors.)',
    data: null,
    errors: [
      {
        field: 'username',
        code: 'invalid-field',
        msg: 'username must be at least 2 characters long.',
      },
      { field: 'mail', code: 'invalid-field', msg: 'mail must be a valid e-mail address.' },
    ],
  });
});

/** Rules the batch route refuses: its failInfo has only a sentence, read back for these. */
const BATCH_REFUSED: [unknown, string][] = [
  [{ ...rule, ruleName: undefined }, 'required'],
  [{ ...rule, ruleName: 'N'.repeat(201) }, 'maxLength'],
  [{ ...rule, questions: [] }, 'minItems'],
  [{ ...rule, questions: Array(11).fill('q') }, 'maxItems'],
  [{ ...rule, questions: ['q', ''] }, 'minLength'],
  [{ ...rule, answer: '  ' }, 'pattern'],
  [{ ...rule, answer: 5 }, 'type'],
  [{ ...rule, answer: 'a\ud800' }, 'wellFormed'],
];

test('the batch route’s sentences about a rule are read back to their keyword', () => {
  const validate = ajv.compile(RuleInputSchema);
  for (const [body, keyword] of BATCH_REFUSED) {
    const problem = check(validate, body, 'rule 0');
    assert.ok(problem, JSON.stringify(body));
    assert.equal(readBatchSentence(problem.message).keyword, keyword, problem.message);
    assert.equal(problem.keyword, keyword, 'the service’s own keyword for it');
  }
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
    describeProblem(en, { keyword: 'anyOf', params: {} }),
    'Change the user name, the password or both.',
  );
});

test('every error code of the service has a sentence of its own: none is shown raw', async () => {
  const { ERROR_CODES } = await import('../../../electron/service/errors');
  const { CODES } = await import('../../../renderer/i18n/describe-problem');
  for (const code of Object.keys(ERROR_CODES)) {
    assert.ok(CODES[code], `${code} has no sentence in the editor`);
    for (const lang of ['en', 'zh-CN'] as const) {
      const said = describeError(
        (key, params) => formatMessage(lang, key, params),
        new ApiError(409, code, 'x'),
      );
      assert.ok(!said.includes(code), `${lang}: ${code} is shown raw: ${said}`);
    }
  }
});
