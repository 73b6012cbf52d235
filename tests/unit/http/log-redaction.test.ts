/** Query strings' values never reach a log line (issue 32): the editor's token travels in one. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactQueryStrings, redactingLogger } from '../../../electron/service/logger';
import type { Logger } from '../../../electron/service/logger';

test('every parameter value after a path is replaced, names kept', () => {
  assert.equal(
    redactQueryStrings('refused GET /%zz?token=abc&x=1: 400 malformed-url'),
    'refused GET /%zz?token=…&x=…: 400 malformed-url',
  );
  assert.equal(
    redactQueryStrings('at http://h:1/?token=t1 and /a?b'),
    'at http://h:1/?token=… and /a?b',
  );
  assert.equal(redactQueryStrings('no query here: /v1/openapi'), 'no query here: /v1/openapi');
});

test('the redacting logger redacts messages and an error cause', () => {
  const seen: string[] = [];
  const inner: Logger = {
    info: (m) => seen.push(m),
    warn: (m) => seen.push(m),
    error: (m, cause) =>
      seen.push(m, cause instanceof Error ? `${cause.message}|${cause.stack}` : String(cause)),
  };
  const logger = redactingLogger(inner);
  logger.info('GET /a?token=SECRET1');
  logger.warn('GET /b?token=SECRET2');
  logger.error('GET /c?token=SECRET3', new Error('failed GET /d?token=SECRET4'));
  assert.ok(!seen.join('\n').match(/SECRET/), seen.join('\n'));
  assert.equal(seen.length, 4);
});
