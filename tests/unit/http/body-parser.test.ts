import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  assertBodyWellFormed,
  decodeBody,
  parseBody,
  parseBodyInSlices,
  parseFormBody,
} from '../../../electron/service/http/body-parser';

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

test('decodeBody: UTF-8 as TextDecoder reads it; each byte that is not UTF-8 a lone surrogate', () => {
  const valid = Buffer.from('\uFEFF{"a":"退货 😀 é"}');
  assert.equal(decodeBody(valid), new TextDecoder('utf-8', { ignoreBOM: true }).decode(valid));
  const cases: [number[], string][] = [
    [[0x61, 0xff, 0x62], 'a\udcffb'],
    [[0xc0, 0x80], '\udcc0\udc80'], // overlong NUL
    [[0xed, 0xa0, 0x80], '\udced\udca0\udc80'], // an encoded surrogate (CESU-8)
    [[0xe9, 0x80], '\udce9\udc80'], // a truncated sequence
    [[0xf4, 0x90, 0x80, 0x80], '\udcf4\udc90\udc80\udc80'], // beyond U+10FFFF
    [[0xf0, 0x9f, 0x98, 0x80, 0xfe], '😀\udcfe'],
  ];
  for (const [bytes, text] of cases) {
    assert.equal(decodeBody(Uint8Array.from(bytes)), text, bytes.join(' '));
  }
});

test('a form body that is not UTF-8 is refused invalid-field, not read with U+FFFD', () => {
  const body = parseFormBody(decodeBody(Buffer.from([0x71, 0x3d, 0xff])));
  assert.throws(
    () => assertBodyWellFormed(body),
    (error: unknown) => (error as { code?: string }).code === 'invalid-field',
  );
});
