/**
 * The rooms and zones of eslint.config.mjs (docs/architecture.md, "Rooms and zones") hold: in
 * every zone an import the table forbids fails lint and one it allows passes, and every folder of
 * electron/ and renderer/ with code belongs to a room. Sources are linted as text with ESLint's
 * Node API at a path inside the zone, so nothing is written to the tree.
 * @module
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';
import type { Linter } from 'eslint';

const root = join(import.meta.dirname, '..', '..');
const eslint = new ESLint({ cwd: root });

interface ZoneProbe {
  /** Where the source is linted from (a real file of a room of single files, else a new one). */
  file: string;
  /** An import the zone allows… */
  allowed: string;
  /** …and imports it forbids. */
  forbidden: string[];
}

/** One probe per room of the table, named as in eslint.config.mjs. */
const ZONES: Record<string, ZoneProbe> = {
  'service-types': {
    file: 'electron/service/api-types.ts',
    allowed: './publishing-types',
    forbidden: ['./errors', './matching/types', './domain/context'],
  },
  'service-limits': {
    file: 'electron/service/limits.ts',
    allowed: './defaults',
    forbidden: ['./errors', './api-types'],
  },
  'service-leaf': {
    file: 'electron/service/errors.ts',
    allowed: './limits',
    forbidden: ['./matching/types', './files/durable-fs'],
  },
  files: {
    file: 'electron/service/files/zone-probe.ts',
    allowed: '../logger',
    forbidden: ['../auth/credentials', '../store/embedded/embedded-store'],
  },
  matching: {
    file: 'electron/service/matching/zone-probe.ts',
    allowed: '../time-slices',
    forbidden: ['../store/contract/store', '../domain/context', '../validation/schemas'],
  },
  validation: {
    file: 'electron/service/validation/zone-probe.ts',
    allowed: '../errors',
    forbidden: ['../matching/types', '../domain/context'],
  },
  auth: {
    file: 'electron/service/auth/zone-probe.ts',
    allowed: '../files/durable-fs',
    forbidden: ['../store/contract/store', '../domain/users'],
  },
  'store-contract': {
    file: 'electron/service/store/contract/zone-probe.ts',
    allowed: '../../matching/types',
    forbidden: ['../sql/migrations/index', '../embedded/embedded-store', '../../domain/context'],
  },
  'store-sql': {
    file: 'electron/service/store/sql/zone-probe.ts',
    allowed: '../contract/store',
    forbidden: ['../embedded/embedded-store', '../postgres/postgres-store', '../../domain/context'],
  },
  'store-embedded': {
    file: 'electron/service/store/embedded/zone-probe.ts',
    allowed: '../sql/migrations/index',
    forbidden: ['../postgres/postgres-store', '../../domain/context', '../../http/app'],
  },
  'store-postgres': {
    file: 'electron/service/store/postgres/zone-probe.ts',
    allowed: '../sql/migrations/index',
    forbidden: ['../embedded/embedded-store', '../../domain/context', '../../cluster/node'],
  },
  domain: {
    file: 'electron/service/domain/zone-probe.ts',
    allowed: '../store/contract/store',
    forbidden: [
      '../http/app',
      '../cluster/node',
      '../store/embedded/embedded-store',
      '../store/postgres/postgres-store',
      '../store/sql/migrations/index',
      '../publishing/publishing-room',
      '../question-log/start',
      '../sign-in/policy',
      '../conversation/menu-memory',
      '../chitchat/small-talk',
      '../simgen/similar-phrasings',
      '../index',
    ],
  },
  publishing: {
    file: 'electron/service/publishing/zone-probe.ts',
    allowed: '../domain/context',
    forbidden: ['../http/app', '../store/embedded/embedded-store', '../question-log/start'],
  },
  'question-log': {
    file: 'electron/service/question-log/zone-probe.ts',
    allowed: '../domain/context',
    forbidden: ['../http/app', '../store/embedded/question-log/day-file-log'],
  },
  'sign-in': {
    file: 'electron/service/sign-in/zone-probe.ts',
    allowed: '../domain/context',
    forbidden: ['../http/app', '../store/postgres/postgres-store'],
  },
  conversation: {
    file: 'electron/service/conversation/zone-probe.ts',
    allowed: '../matching/types',
    forbidden: ['../domain/context', '../http/app'],
  },
  chitchat: {
    file: 'electron/service/chitchat/zone-probe.ts',
    allowed: '../matching/types',
    forbidden: ['../domain/context', '../store/contract/store'],
  },
  simgen: {
    file: 'electron/service/simgen/zone-probe.ts',
    allowed: '../matching/types',
    forbidden: ['../domain/context', '../http/app'],
  },
  embedding: {
    file: 'electron/service/embedding/zone-probe.ts',
    allowed: '../store/contract/vectors',
    forbidden: ['../domain/context', '../store/embedded/vector-file', '../http/app'],
  },
  cluster: {
    file: 'electron/service/cluster/zone-probe.ts',
    allowed: '../store/postgres/postgres-store',
    forbidden: ['../http/app', '../store/embedded/embedded-store', '../index'],
  },
  http: {
    file: 'electron/service/http/zone-probe.ts',
    allowed: '../question-log/start',
    forbidden: [
      '../store/embedded/embedded-store',
      '../store/postgres/postgres-store',
      '../store/sql/migrations/index',
      '../cluster/node',
      '../index',
    ],
  },
  'service-composition': {
    file: 'electron/service/index.ts',
    allowed: './cluster/node',
    forbidden: ['../desktop/port', '../main', '../../renderer/api/token'],
  },
  'service-composition (backend/)': {
    file: 'electron/service/backend/zone-probe.ts',
    allowed: '../store/postgres/postgres-store',
    forbidden: ['../../desktop/port', '../../client/openapi-client'],
  },
  client: {
    file: 'electron/client/zone-probe.ts',
    allowed: '../service/auth/canonical',
    forbidden: ['../service/domain/context', '../service/limits', '../desktop/port'],
  },
  cli: {
    file: 'electron/cli/zone-probe.ts',
    allowed: '../service/store/embedded/repair',
    forbidden: ['../service/http/app', '../service/domain/context', '../desktop/port'],
  },
  desktop: {
    file: 'electron/desktop/zone-probe.ts',
    allowed: '../service/files/durable-fs',
    forbidden: ['../service/http/app', '../service/store/embedded/embedded-store', '../main'],
  },
  host: {
    file: 'electron/main.ts',
    allowed: './service/index',
    forbidden: ['./service/domain/context', './service/http/app', './cli/sign'],
  },
  'renderer-api': {
    file: 'renderer/api/zone-probe.ts',
    allowed: '../../electron/client/openapi-client',
    forbidden: ['../i18n/useI18n', '../../electron/service/domain/context', '../lib/run-limited'],
  },
  'renderer-i18n': {
    file: 'renderer/i18n/zone-probe.ts',
    allowed: '../api/api-error',
    forbidden: ['../components/Dialog', '../lib/run-limited', '../../electron/service/errors'],
  },
  'renderer-lib': {
    file: 'renderer/lib/zone-probe.ts',
    allowed: '../api/token',
    forbidden: ['../components/Dialog', '../features/trash/TrashPage', '../styles/base.css'],
  },
  'renderer-components': {
    file: 'renderer/components/zone-probe.ts',
    allowed: '../lib/run-limited',
    forbidden: ['../features/trash/TrashPage', '../App'],
  },
  'renderer-feature': {
    file: 'renderer/features/trash/zone-probe.ts',
    allowed: '../../components/Dialog',
    forbidden: [
      '../workspace/Sidebar',
      '../rules-grid/RulesView',
      '../../App',
      '../../../electron/service/http/app',
      '../../../electron/service/logger',
    ],
  },
  'renderer-feature (a feature above others)': {
    file: 'renderer/features/rules-grid/zone-probe.ts',
    allowed: '../try-question/TryPane',
    forbidden: ['../workspace/Sidebar', '../publishing/PublishingPage'],
  },
  'renderer-feature (a feature below rules-grid)': {
    file: 'renderer/features/try-question/zone-probe.ts',
    allowed: '../test-sets/KeepAsTest',
    forbidden: ['../rules-grid/RulesView', '../categories/CategoriesDialog'],
  },
  'renderer-shell': {
    file: 'renderer/App.tsx',
    allowed: './features/workspace/Sidebar',
    forbidden: ['../electron/service/domain/context', '../electron/service/errors'],
  },
};

async function lint(file: string, specifier: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(`import '${specifier}';\n`, {
    filePath: join(root, file),
  });
  assert.ok(result, `no lint result for ${file}`);
  return result.messages;
}

for (const [zone, probe] of Object.entries(ZONES)) {
  test(`zone ${zone}: ${probe.allowed} passes, ${probe.forbidden.length} forbidden imports fail`, async () => {
    assert.deepEqual(
      await lint(probe.file, probe.allowed),
      [],
      `${probe.allowed} from ${probe.file}`,
    );
    for (const specifier of probe.forbidden) {
      const rules = (await lint(probe.file, specifier)).map((message) => message.ruleId);
      assert.deepEqual(rules, ['boundaries/dependencies'], `${specifier} from ${probe.file}`);
    }
  });
}

/**
 * The TypeScript files below `dir`, but for build output kept in the tree (`generated/`): lint
 * ignores it, and its own unit test keeps it equal to what the build makes.
 */
function codeFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : codeFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

test('every file of electron/ and renderer/ belongs to a room', async () => {
  const files = [...codeFiles('electron'), ...codeFiles('renderer')];
  assert.ok(files.length > 300, `only ${files.length} files found`);
  for (const file of files) {
    const [result] = await eslint.lintText('export {};\n', { filePath: join(root, file) });
    assert.deepEqual(result?.messages, [], `${file} has no room`);
  }
});

test('a file in a folder no room claims, or a new file beside the single-file rooms, fails lint', async () => {
  for (const file of [
    'electron/service/new-room/zone-probe.ts',
    'electron/new-room/zone-probe.ts',
    'renderer/new-room/zone-probe.ts',
    'electron/service/zone-probe.ts',
  ]) {
    const [result] = await eslint.lintText('export {};\n', { filePath: join(root, file) });
    const rules = result?.messages.map((message) => message.ruleId);
    assert.deepEqual(rules, ['boundaries/no-unknown-files'], file);
  }
});
