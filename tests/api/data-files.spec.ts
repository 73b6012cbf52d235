/**
 * The data directory's files: private to their owner (files 0600, the folder 0700), older ones
 * narrowed at start with a log line; and a `credentials.json` that cannot be used stops the
 * service with a message naming the file and what is wrong (never a stack, never new
 * credentials written over it).
 */
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { OpenApiClient } from '../../electron/client/openapi-client';
import { readCredentialsFile } from '../../electron/service/auth/credentials';
import { runServiceExpectingFailure, spawnService } from '../helpers/child-service';
import { makeDataDir, tenantRequest } from '../helpers/service';
import { onPostgres } from '../helpers/test-store';

/** The credentials come from the data directory, not from the test's environment. */
const FROM_FILE = { KB_CUSTOMER_ID: '', KB_ADMIN_KEY: '', KB_ADMIN_SECRET: '' };
const posix = process.platform !== 'win32';
const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('data files', () => {
  const dirs: string[] = [];
  const dir = () => {
    const d = makeDataDir('data-files');
    dirs.push(d);
    return d;
  };
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  test(
    'are private to their owner, and wider permissions are narrowed at start with a log line',
    { skip: posix ? false : 'no POSIX permissions here' },
    async () => {
      const dataDir = join(dir(), 'kb-data');
      let service = await spawnService(dataDir, { env: FROM_FILE });
      const credentials = readCredentialsFile(dataDir);
      assert.ok(credentials, 'credentials.json written');
      await new OpenApiClient({ baseUrl: service.url, ...credentials }).registerTenant(
        tenantRequest(),
      );
      service.child.kill('SIGTERM');
      assert.equal(await service.exited, 0);
      const files = readdirSync(dataDir);
      // A team server's node keeps only its own files (no database); its saved indexes are a cache.
      const own = ['nonces.json', 'credentials.json'];
      for (const name of onPostgres ? own : ['kb.sqlite', 'kb.index', ...own])
        assert.ok(files.includes(name), `${name} written`);
      assert.equal(modeOf(dataDir), 0o700, 'the data directory');
      // Folders (a node's saved indexes) are the owner's alone too, and so is every file in them.
      const privateModes = (folder: string): void => {
        for (const name of readdirSync(folder)) {
          const path = join(folder, name);
          if (statSync(path).isDirectory()) {
            assert.equal(modeOf(path), 0o700, path);
            privateModes(path);
          } else assert.equal(modeOf(path), 0o600, path);
        }
      };
      privateModes(dataDir);

      // A team server's node has no database file; its nonces file is read and set aside at start.
      const widened = onPostgres ? ['credentials.json'] : ['kb.sqlite', 'credentials.json'];
      chmodSync(dataDir, 0o755);
      for (const name of widened) chmodSync(join(dataDir, name), 0o644);
      service = await spawnService(dataDir, { env: FROM_FILE });
      try {
        assert.match(
          service.output(),
          /made the data directory .* private to its owner .*: the folder itself, .*credentials\.json/,
        );
        assert.equal(modeOf(dataDir), 0o700);
        for (const name of widened) assert.equal(modeOf(join(dataDir, name)), 0o600, name);
      } finally {
        // A failed check must not leave the service running (the test file would never end).
        service.child.kill('SIGTERM');
      }
      assert.equal(await service.exited, 0);
    },
  );

  const broken = [
    { what: 'is not JSON', text: '{ "customerId": "c1", ', message: /is not valid JSON/ },
    {
      what: 'lacks a field',
      text: '{ "customerId": "c1", "adminkey": "k1", "adminSecrt": "s1" }',
      message: /lacks the field adminsecret/,
    },
    { what: 'is not an object', text: '["c1", "k1", "s1"]', message: /is not a JSON object/ },
  ];
  for (const { what, text, message } of broken) {
    test(`a credentials.json that ${what} stops the start with a message naming it, and is kept as it is`, async () => {
      const dataDir = dir();
      const path = join(dataDir, 'credentials.json');
      writeFileSync(path, text);
      const { code, output } = await runServiceExpectingFailure(dataDir, { env: FROM_FILE });
      assert.equal(code, 1, output);
      assert.ok(output.includes(`credentials.json (${path})`), output);
      assert.match(output, message);
      assert.doesNotMatch(output, /\n\s+at /, 'no stack trace');
      assert.equal(readFileSync(path, 'utf8'), text, 'the file is left as it was');
    });
  }
});
