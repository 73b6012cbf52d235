import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { Type } from '@sinclair/typebox';
import { GENERATED, fieldValidatorsSource } from '../../../build/field-validators';
import { compileCheck } from '../../../renderer/api/field-check';
import { FIELD_SCHEMAS } from '../../../renderer/api/field-schemas';

/** The editor's field validators, compiled at build time (its CSP has no 'unsafe-eval'). */
describe('the precompiled field validators', () => {
  test('are what the schemas compile to today (npm run build refreshes them)', async () => {
    const { js, dts } = await fieldValidatorsSource();
    assert.equal(readFileSync(`${GENERATED}.js`, 'utf8'), js, 'field-validators.js lags');
    assert.equal(readFileSync(`${GENERATED}.d.ts`, 'utf8'), dts, 'field-validators.d.ts lags');
  });

  test('make no code at run time', () => {
    const js = readFileSync(`${GENERATED}.js`, 'utf8');
    assert.equal(/\bnew Function\b|\beval\(|\brequire\(/.test(js.replace(/'[^'\n]*'/g, '')), false);
  });

  test('check as the service does, naming the field', () => {
    const check = compileCheck(FIELD_SCHEMAS.ruleQuestions, 'questions');
    assert.equal(check(['how do I pay?']), null);
    const problem = check(['fine', ' ']);
    assert.equal(problem?.field, 'questions[1]');
    assert.equal(problem?.keyword, 'pattern');
    assert.equal(compileCheck(FIELD_SCHEMAS.ruleName, 'ruleName')('\ud800')?.keyword, 'wellFormed');
  });

  test('a schema not listed in field-schemas.ts is refused, not compiled', () => {
    assert.throws(() => compileCheck(Type.String(), 'x'), /field-schemas\.ts/);
  });
});
