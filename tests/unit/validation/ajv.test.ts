import assert from 'node:assert/strict';
import { test } from 'node:test';
import { check, createAjv } from '../../../electron/service/validation/ajv';
import {
  AskBody,
  RegisterTenantBody,
  RuleInputSchema,
  UpdateUserBody,
} from '../../../electron/service/validation/schemas';

const ajv = createAjv();
const register = ajv.compile(RegisterTenantBody);
const rule = ajv.compile(RuleInputSchema);
const valid = {
  username: '张三_01',
  password: 'secret1',
  phoneNumber: '13912345678',
  mail: 'a@b.cn',
  company: 'ACME',
};

test('lengths count code points: 15 emoji-free Han pass, an emoji counts as one character', () => {
  assert.equal(check(register, { ...valid, username: '汉'.repeat(15) }), null);
  assert.equal(
    check(register, { ...valid, password: '😀😀😀😀😀😀' }),
    null,
    'six emoji are six characters',
  );
  assert.match(check(register, { ...valid, password: '😀😀😀😀😀' })?.message ?? '', /at least 6/);
});

test('each problem has a code, a sentence naming the field, and the keyword and params it says', () => {
  assert.deepEqual(check(register, { ...valid, company: undefined }), {
    code: 'missing-field',
    message: 'company is required.',
    field: 'company',
    keyword: 'required',
    params: { missingProperty: 'company' },
  });
  assert.deepEqual(check(register, { ...valid, phoneNumber: 13912345678 }), {
    code: 'invalid-field',
    message: 'phoneNumber must be a string.',
    field: 'phoneNumber',
    keyword: 'type',
    params: { type: 'string' },
  });
  assert.match(
    check(register, { ...valid, username: 'a b' })?.message ?? '',
    /^username may contain only/,
  );
  assert.match(
    check(register, { ...valid, mail: 'a@@b.cn' })?.message ?? '',
    /^mail must be a valid e-mail/,
  );
  assert.match(
    check(register, { ...valid, mail: 'a@b' })?.message ?? '',
    /^mail must be a valid e-mail/,
  );
  assert.match(
    check(register, { ...valid, company: ' \t ' })?.message ?? '',
    /^company must not be blank/,
  );
});

test('phone numbers: mainland mobiles and E.164', () => {
  for (const phone of ['13800138000', '19912345678', '+8613800138000', '+14155550123']) {
    assert.equal(check(register, { ...valid, phoneNumber: phone }), null, phone);
  }
  for (const phone of [
    '12800138000',
    '1380013800',
    '+1234567',
    '+1234567890123456',
    '138-0013-8000',
  ]) {
    assert.notEqual(check(register, { ...valid, phoneNumber: phone }), null, phone);
  }
});

test('rule problems name the element of questions', () => {
  const problem = check(
    rule,
    { ruleName: 'r', questions: ['ok', 'x'.repeat(201)], answerContentType: 'TEXT', answer: 'a' },
    'rule 4',
  );
  assert.deepEqual(problem, {
    code: 'invalid-field',
    message: 'questions[1] must be at most 200 characters long.',
    field: 'questions[1]',
    keyword: 'maxLength',
    params: { limit: 200 },
  });
  assert.deepEqual(check(rule, null, 'rule 4'), {
    code: 'invalid-field',
    message: 'rule 4 must be an object.',
    keyword: 'type',
    params: { type: 'object' },
  });
});

test('update needs one of its fields; ask needs the API channel', () => {
  const update = ajv.compile(UpdateUserBody);
  assert.equal(check(update, { role: 'ADMIN' }), null);
  const none = check(update, { other: 1 });
  assert.equal(none?.code, 'missing-field');
  assert.equal(none?.keyword, 'anyRequired');
  assert.deepEqual(none?.params, { alternatives: ['username', 'password', 'role'] });
  const ask = ajv.compile(AskBody);
  assert.match(
    check(ask, { userId: 'u', question: 'q', channel: 'WEB', questionType: 'TEXT' })?.message ?? '',
    /channel must be API/,
  );
});
