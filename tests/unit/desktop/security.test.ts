import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CONTENT_SECURITY_POLICY, decideNavigation } from '../../../electron/desktop/security';
import {
  decideWindowOpen,
  isAppUrl,
  isPermissionGranted,
} from '../../../electron/desktop/security';
import { withContentSecurityPolicy } from '../../../electron/desktop/security';

const APP = 'http://127.0.0.1:8787';

describe('navigation policy', () => {
  test('the editor may navigate within its own origin', () => {
    for (const url of [`${APP}/`, `${APP}/?token=abc#rules`, `${APP}/v1/openapi/x`])
      assert.equal(decideNavigation(url, APP), 'allow', url);
  });

  test('web pages elsewhere open in the system browser', () => {
    for (const url of [
      'https://example.com/',
      'http://127.0.0.1:8788/',
      'http://localhost:8787/',
      'https://127.0.0.1:8787/',
    ])
      assert.equal(decideNavigation(url, APP), 'open-external', url);
  });

  test('other schemes and unparsable URLs are refused', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,<p>x',
      'kbstudio://x',
      'not a url',
      '',
    ])
      assert.equal(decideNavigation(url, APP), 'deny', url);
  });

  test('new windows: never in the app; web URLs go to the browser', () => {
    assert.equal(decideWindowOpen('https://example.com/docs'), 'open-external');
    assert.equal(decideWindowOpen(`${APP}/other`), 'open-external');
    assert.equal(decideWindowOpen('file:///tmp/x.html'), 'deny');
    assert.equal(decideWindowOpen('about:blank'), 'deny');
  });

  test('before the service listens, nothing is the app', () => {
    assert.equal(isAppUrl(`${APP}/`, 'null:'), false);
    assert.equal(decideNavigation('null:', 'null:'), 'deny');
  });
});

describe('Content-Security-Policy', () => {
  test('is the editor’s own policy: only its origin, no inline script, no eval', () => {
    const directives = new Map(
      CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]),
    );
    assert.deepEqual(directives.get('default-src'), ["'self'"]);
    // The field checks are compiled at build time (build/field-validators.ts): no eval, no
    // inline script, no other origin.
    assert.deepEqual(directives.get('script-src'), ["'self'"]);
    assert.deepEqual(directives.get('connect-src'), ["'self'"]);
    assert.deepEqual(directives.get('object-src'), ["'none'"]);
  });

  test("replaces any CSP on the editor's responses, whatever the header's case", () => {
    const headers = { 'content-type': ['text/html'], 'content-security-policy': ['default-src *'] };
    assert.deepEqual(withContentSecurityPolicy(`${APP}/index.html`, APP, headers), {
      'content-type': ['text/html'],
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
    });
    assert.deepEqual(withContentSecurityPolicy(`${APP}/`, APP), {
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
    });
  });

  test('leaves responses of other origins alone', () => {
    const headers = { 'content-type': ['text/html'] };
    assert.equal(withContentSecurityPolicy('https://example.com/', APP, headers), headers);
  });
});

describe('permissions', () => {
  test('everything is refused but clipboard writes from the editor', () => {
    assert.equal(isPermissionGranted('clipboard-sanitized-write', `${APP}/`, APP), true);
    assert.equal(
      isPermissionGranted('clipboard-sanitized-write', 'https://evil.test/', APP),
      false,
    );
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'openExternal',
    ])
      assert.equal(isPermissionGranted(permission, `${APP}/`, APP), false, permission);
  });
});
