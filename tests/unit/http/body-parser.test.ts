import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseBody, parseBodyInSlices } from '../../../electron/service/http/body-parser';

/** Long enough to be parsed in slices. */
const pad = ' '.repeat(70 * 1024);
const rules = Array.from({ length: 1000 }, (_, i) => ({
  ruleName: `规则 ${i} [x] {y} "quoted" \\ , ]`,
  questions: [`q${i}`, '\n\t', '😀'],
  answer: i % 2 ? null : { nested: [[], {}, [1, [2, { a: ']' }]]], n: -1.5e3 },
}));

test('a long body parsed in slices is what parsing it whole gives, __proto__ keys dropped', async () => {
  const texts = [
    JSON.stringify(rules),
    `${pad}[ ${JSON.stringify(rules).slice(1, -1)} ]${pad}`,
    `[${pad}]`,
    `[1, "two", null, true, {"__proto__": {"polluted": 1}, "kept": 2}, [3]]${pad}`,
    `{"rules": ${JSON.stringify(rules)}}`,
    `${pad}"a string"`,
    `\uFEFF${JSON.stringify(rules)}`,
  ];
  for (const text of texts) {
    assert.ok(text.length >= 64 * 1024);
    assert.deepEqual(await parseBodyInSlices(text), parseBody(text), text.slice(0, 80));
  }
  const parsed = (await parseBodyInSlices(texts[3] as string)) as Record<string, unknown>[];
  assert.equal(Object.getPrototypeOf(parsed[4]), Object.prototype);
  assert.equal(({} as { polluted?: number }).polluted, undefined);
});

test('a long malformed body gets the same error as when parsed whole', async () => {
  const body = JSON.stringify(rules);
  const texts = [
    `${body.slice(0, -1)},]`,
    `[,${body.slice(1)}`,
    `${body.slice(0, -1)}`,
    `${body}]`,
    `${body} x`,
    `[{"a": 1]${pad}}]`,
    `[[1}, 2]${pad}`,
    `[1 2]${pad}`,
    `[${pad}"unterminated]`,
  ];
  for (const text of texts) {
    const whole = parseBody(text);
    assert.ok(typeof whole === 'object' && whole !== null && !Array.isArray(whole));
    assert.deepEqual(await parseBodyInSlices(text), whole, text.slice(-60));
  }
});
