import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TSchema } from '@sinclair/typebox';
import { check, createAjv } from '../../../electron/service/validation/ajv';
import * as consoleSchemas from '../../../electron/service/validation/console-schemas';
import * as questionLogSchemas from '../../../electron/service/validation/question-log-schemas';
import * as publishingSchemas from '../../../electron/service/validation/publishing-schemas';
import * as pathSchemas from '../../../electron/service/validation/path-schemas';
import * as schemas from '../../../electron/service/validation/schemas';

const ajv = createAjv();

/** Every string schema below `schema` that is not a constant or an enum (their values are ours), with its path. */
function stringNodes(
  schema: unknown,
  path: string,
): { path: string; node: Record<string, unknown> }[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const own =
    node.type === 'string' && !('const' in node) && !('enum' in node) ? [{ path, node }] : [];
  return [
    ...own,
    ...Object.entries(node).flatMap(([key, child]) =>
      Array.isArray(child)
        ? child.flatMap((item, i) => stringNodes(item, `${path}.${key}[${i}]`))
        : stringNodes(child, `${path}.${key}`),
    ),
  ];
}

const exported = Object.entries({
  ...schemas,
  ...consoleSchemas,
  ...questionLogSchemas,
  ...publishingSchemas,
  ...pathSchemas,
}).filter(([, value]) => typeof value === 'object' && value !== null) as [string, TSchema][];

test('every string a schema accepts must be well-formed (none made with Type.String alone)', () => {
  const nodes = exported.flatMap(([name, schema]) => stringNodes(schema, name));
  assert.ok(nodes.length > 40, `found only ${nodes.length} string schemas`);
  const missing = nodes.filter(({ node }) => node.wellFormed !== true).map(({ path }) => path);
  assert.deepEqual(missing, []);
});

test('a lone surrogate is refused, naming the field; surrogate pairs are text', () => {
  const query = ajv.compile(consoleSchemas.RuleQueryString);
  assert.deepEqual(check(query, { q: 'a\ud800' }, 'the query'), {
    code: 'invalid-field',
    message:
      'q must be well-formed text (it holds a lone surrogate, half of a UTF-16 pair, or bytes that are not UTF-8).',
    field: 'q',
    keyword: 'wellFormed',
    params: {},
  });
  assert.equal(check(query, { q: '😀' }), null);
  const rule = ajv.compile(schemas.RuleInputSchema);
  const valid = { ruleName: 'n', questions: ['q'], answerContentType: 'TEXT', answer: 'a' };
  for (const lone of ['\ud800', '\udfff', 'x\udc00y', '😀\ud83d']) {
    assert.equal(check(rule, { ...valid, questions: ['q', lone] })?.field, 'questions[1]', lone);
  }
  assert.equal(check(rule, { ...valid, ruleName: '😀𠀀' }), null);
});
