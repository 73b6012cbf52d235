import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/*
 * Rooms and zones (docs/architecture.md, "Rooms and zones"). Every file of electron/ and
 * renderer/ belongs to exactly one room (`boundaries/no-unknown-files` refuses a file that none
 * claims), and a room imports only the rooms its row names (`boundaries/dependencies`, default
 * disallow; imports inside one room are free). Paths are absolute from the repository root, so a
 * deeper relative import cannot slip past.
 *
 * | room                | may import                                                                 |
 * | ------------------- | -------------------------------------------------------------------------- |
 * | service-types       | service-types                                                              |
 * | service-limits      | —                                                                          |
 * | service-leaf        | service-types, service-limits                                              |
 * | files               | the leaves (service-types, service-limits, service-leaf)                   |
 * | matching            | the leaves                                                                 |
 * | validation          | the leaves                                                                 |
 * | auth                | the leaves, files                                                          |
 * | store-contract      | the leaves, matching                                                       |
 * | store-sql           | the leaves, matching, store-contract                                       |
 * | store-embedded      | the leaves, files, matching, store-contract, store-sql                     |
 * | store-postgres      | the leaves, files, matching, store-contract, store-sql                     |
 * | domain              | the leaves, matching, validation, auth, store-contract                     |
 * | publishing,         | the leaves, matching, validation, auth, store-contract, domain             |
 * | question-log,       |                                                                            |
 * | sign-in             |                                                                            |
 * | conversation,       | the leaves, matching, validation                                           |
 * | chitchat, simgen    |                                                                            |
 * | embedding           | the leaves, matching, store-contract (the domain reaches it by a port)     |
 * | cluster             | the leaves, matching, store-contract, store-sql, store-postgres, domain    |
 * | http                | the leaves, files, matching, validation, auth, store-contract, domain and  |
 * |                     | the rooms beside it (publishing … embedding); never a store, cluster, index|
 * | service-composition | every room of the service (index.ts, config.ts, backend/)                  |
 * | client              | service-types, auth                                                        |
 * | cli                 | the leaves, files, auth, store-embedded, client                            |
 * | desktop             | service-types, service-limits, files, client, service-composition          |
 * | host                | the leaves, service-composition, desktop, host                             |
 * | renderer-api        | service-types, service-limits, validation, client                          |
 * | renderer-i18n       | service-types, service-limits, validation, renderer-api                    |
 * | renderer-lib        | the renderer's service rooms, renderer-api, renderer-i18n                  |
 * | renderer-components | the renderer's service rooms, renderer-api, renderer-i18n, renderer-lib    |
 * | renderer-feature    | the renderer's service rooms, api, i18n, lib, components, and the features |
 * |                     | listed below it in FEATURES_BELOW                                          |
 * | renderer-shell      | every room of the renderer and the renderer's service rooms                |
 * | renderer-styles     | — (style sheets, imported by the shell)                                    |
 *
 * ("the leaves": service-types, service-limits, service-leaf. "The renderer's service rooms":
 * service-types, service-limits, validation, client. renderer/public/ holds no module: Vite
 * copies it.)
 */

const SERVICE = 'electron/service';

/**
 * Rooms that are folders (boundaries' elements: one element per folder, its files free to import
 * each other), by their path from the repository root.
 */
const FOLDER_ROOMS = [
  { type: 'files', pattern: `${SERVICE}/files` },
  { type: 'matching', pattern: `${SERVICE}/matching` },
  { type: 'validation', pattern: `${SERVICE}/validation` },
  { type: 'auth', pattern: `${SERVICE}/auth` },
  { type: 'store-contract', pattern: `${SERVICE}/store/contract` },
  { type: 'store-sql', pattern: `${SERVICE}/store/sql` },
  { type: 'store-embedded', pattern: `${SERVICE}/store/embedded` },
  { type: 'store-postgres', pattern: `${SERVICE}/store/postgres` },
  { type: 'domain', pattern: `${SERVICE}/domain` },
  ...['publishing', 'question-log', 'sign-in', 'conversation', 'chitchat', 'simgen'].map(
    (room) => ({ type: room, pattern: `${SERVICE}/${room}` }),
  ),
  { type: 'embedding', pattern: `${SERVICE}/embedding` },
  { type: 'cluster', pattern: `${SERVICE}/cluster` },
  { type: 'http', pattern: `${SERVICE}/http` },
  { type: 'service-composition', pattern: `${SERVICE}/backend` },
  { type: 'client', pattern: 'electron/client' },
  { type: 'cli', pattern: 'electron/cli' },
  { type: 'desktop', pattern: 'electron/desktop' },
  { type: 'renderer-api', pattern: 'renderer/api' },
  { type: 'renderer-i18n', pattern: 'renderer/i18n' },
  { type: 'renderer-lib', pattern: 'renderer/lib' },
  { type: 'renderer-components', pattern: 'renderer/components' },
  { type: 'renderer-feature', pattern: 'renderer/features/*', capture: ['feature'] },
  { type: 'renderer-styles', pattern: 'renderer/styles' },
].map((room) => ({ ...room, partialMatch: false }));

/** Rooms that are single files beside the folders (boundaries' file categories). */
const FILE_ROOMS = [
  // Leaves: plain data and constants, importing nothing but each other.
  { category: 'service-types', pattern: `${SERVICE}/*-types.ts` },
  {
    category: 'service-limits',
    pattern: [`${SERVICE}/limits.ts`, `${SERVICE}/defaults.ts`, `${SERVICE}/editor-policy.ts`],
  },
  {
    category: 'service-leaf',
    pattern: ['errors', 'logger', 'time-slices', 'saved-index', 'worker-threads', 'text-hash'].map(
      (f) => `${SERVICE}/${f}.ts`,
    ),
  },
  { category: 'service-composition', pattern: [`${SERVICE}/index.ts`, `${SERVICE}/config.ts`] },
  { category: 'host', pattern: 'electron/*.ts' },
  { category: 'renderer-shell', pattern: ['renderer/*.ts', 'renderer/*.tsx'] },
];

/** Boundaries' selector of a room, whether it is a folder, single files or both. */
function room(name) {
  const selectors = [];
  if (FOLDER_ROOMS.some((r) => r.type === name)) selectors.push({ element: { type: name } });
  if (FILE_ROOMS.some((r) => r.category === name)) selectors.push({ file: { categories: name } });
  if (selectors.length === 0) throw new Error(`eslint.config.mjs: no room named ${name}`);
  return selectors;
}

/**
 * The editor's features in order: each may import only the features its entry names (which
 * import none of those above them), so feature folders never import each other in a circle.
 * What several features share lives in renderer/lib/ or renderer/components/.
 */
const FEATURES_BELOW = {
  workspace: ['question-log', 'trash'],
  'rules-grid': [
    'categories',
    'collisions',
    'excel-import',
    'rule-matching',
    'trash',
    'try-question',
  ],
  'try-question': ['collisions', 'test-sets'],
  publishing: ['excel-import', 'test-sets'],
  dashboard: ['question-log'],
  'robot-settings': ['trash'],
};

const LEAVES = ['service-types', 'service-limits', 'service-leaf'];
const RENDERER_SERVICE = ['service-types', 'service-limits', 'validation', 'client'];
const BESIDE_DOMAIN = [
  'publishing',
  'question-log',
  'sign-in',
  'conversation',
  'chitchat',
  'simgen',
  'embedding',
];
const RENDERER_ROOMS = [
  'renderer-api',
  'renderer-i18n',
  'renderer-lib',
  'renderer-components',
  'renderer-feature',
  'renderer-shell',
  'renderer-styles',
];

/** What each room may import (the table above). */
const MAY_IMPORT = {
  'service-types': ['service-types'],
  'service-limits': [],
  'service-leaf': ['service-types', 'service-limits'],
  files: LEAVES,
  matching: LEAVES,
  validation: LEAVES,
  auth: [...LEAVES, 'files'],
  'store-contract': [...LEAVES, 'matching'],
  'store-sql': [...LEAVES, 'matching', 'store-contract'],
  'store-embedded': [...LEAVES, 'files', 'matching', 'store-contract', 'store-sql'],
  'store-postgres': [...LEAVES, 'files', 'matching', 'store-contract', 'store-sql'],
  domain: [...LEAVES, 'matching', 'validation', 'auth', 'store-contract'],
  publishing: [...LEAVES, 'matching', 'validation', 'auth', 'store-contract', 'domain'],
  'question-log': [...LEAVES, 'matching', 'validation', 'auth', 'store-contract', 'domain'],
  'sign-in': [...LEAVES, 'matching', 'validation', 'auth', 'store-contract', 'domain'],
  conversation: [...LEAVES, 'matching', 'validation'],
  chitchat: [...LEAVES, 'matching', 'validation'],
  simgen: [...LEAVES, 'matching', 'validation'],
  embedding: [...LEAVES, 'matching', 'store-contract'],
  cluster: [...LEAVES, 'matching', 'store-contract', 'store-sql', 'store-postgres', 'domain'],
  http: [
    ...LEAVES,
    'files',
    'matching',
    'validation',
    'auth',
    'store-contract',
    'domain',
    ...BESIDE_DOMAIN,
  ],
  'service-composition': [
    ...new Set(
      [...FOLDER_ROOMS, ...FILE_ROOMS]
        .filter((r) => [r.pattern].flat().every((path) => path.startsWith(`${SERVICE}/`)))
        .map((r) => r.type ?? r.category),
    ),
  ],
  client: ['service-types', 'auth'],
  cli: [...LEAVES, 'files', 'auth', 'store-embedded', 'client'],
  desktop: ['service-types', 'service-limits', 'files', 'client', 'service-composition'],
  host: [...LEAVES, 'service-composition', 'desktop', 'host'],
  'renderer-api': [...RENDERER_SERVICE],
  'renderer-i18n': [...RENDERER_SERVICE, 'renderer-api'],
  'renderer-lib': [...RENDERER_SERVICE, 'renderer-api', 'renderer-i18n'],
  'renderer-components': [...RENDERER_SERVICE, 'renderer-api', 'renderer-i18n', 'renderer-lib'],
  'renderer-feature': [
    ...RENDERER_SERVICE,
    'renderer-api',
    'renderer-i18n',
    'renderer-lib',
    'renderer-components',
  ],
  'renderer-shell': [...RENDERER_SERVICE, ...RENDERER_ROOMS],
  'renderer-styles': [],
};

/**
 * Imports allowed against the table, none today: each would name the importing file (or folder, ending in /) and what it may still import. Each is as narrow as the
 * imports it covers; build/check-imports.mjs (run by `npm run lint`) fails when one covers no
 * import any more, so that it is deleted with the import.
 */
export const KNOWN_EXCEPTIONS = [];

/** A path of KNOWN_EXCEPTIONS as boundaries' pattern (a folder: everything below it). */
const asGlob = (path) => (path.endsWith('/') ? `${path}**` : path);

const zonePolicies = [
  ...Object.entries(MAY_IMPORT).map(([name, rooms]) => ({
    from: room(name),
    // A room of single files (the leaves, the hosts) may import its own files; a folder's files
    // import each other freely anyway, except across feature folders.
    allow: { to: (name === 'renderer-feature' ? rooms : [name, ...rooms]).flatMap(room) },
  })),
  ...Object.entries(FEATURES_BELOW).map(([feature, below]) => ({
    from: { element: { type: 'renderer-feature', captured: { feature } } },
    allow: { to: { element: { type: 'renderer-feature', captured: { feature: below } } } },
  })),
  {
    // The contract's request types are the schemas' (`Static<typeof X>`): a type-only import.
    from: room('service-types'),
    allow: { to: room('validation'), dependency: { kind: 'type' } },
  },
  ...KNOWN_EXCEPTIONS.map(({ from, to }) => ({
    from: { file: { path: asGlob(from) } },
    allow: { to: { file: { path: [to].flat().map(asGlob) } } },
  })),
];

const NO_ELECTRON = { name: 'electron', message: 'The service core must not depend on Electron.' };

export default tseslint.config(
  {
    ignores: [
      '.tmp/**',
      'dist/**',
      'release/**',
      'node_modules/**',
      'artifacts/**',
      // Generated by build/field-validators.ts (Ajv's code).
      'renderer/api/generated/**',
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  { files: ['**/*.mjs', '**/*.cjs', '**/*.js'], languageOptions: { globals: globals.node } },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  // Rooms and zones (the table at the top of this file).
  {
    files: ['electron/**/*.ts', 'renderer/**/*.ts', 'renderer/**/*.tsx'],
    plugins: { boundaries },
    settings: {
      'boundaries/root-path': import.meta.dirname,
      'boundaries/elements': FOLDER_ROOMS,
      'boundaries/files': FILE_ROOMS,
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.mjs', '.js'] } },
    },
    rules: {
      'boundaries/no-unknown-files': 'error',
      'boundaries/dependencies': [
        'error',
        { default: 'disallow', checkUnknownLocals: true, policies: zonePolicies },
      ],
    },
  },
  // Packages: the service core runs in plain Node and in Electron's main process alike, and only
  // http/ (and the composition that starts it) knows the HTTP framework.
  {
    files: [`${SERVICE}/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_ELECTRON] }] },
  },
  {
    files: [`${SERVICE}/**/*.ts`],
    ignores: [`${SERVICE}/http/**`, `${SERVICE}/index.ts`, `${SERVICE}/backend/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            NO_ELECTRON,
            { name: 'fastify', message: 'Only http/ knows the HTTP framework.' },
          ],
        },
      ],
    },
  },
);
