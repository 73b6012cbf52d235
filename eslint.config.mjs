import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const NO_ELECTRON = { name: 'electron', message: 'The service core must not depend on Electron.' };
const NO_FASTIFY = { name: 'fastify', message: 'Only http/ knows the HTTP framework.' };
const NO_RENDERER = {
  group: ['**/renderer/**'],
  message: 'The service must not import the renderer.',
};
/** A pattern refusing imports of the given rooms of the service from `room`. */
const below = (room, rooms) => ({
  group: rooms.flatMap((name) => [
    `./${name}/*`,
    `../${name}/*`,
    `../../${name}/*`,
    `../../../${name}/*`,
  ]),
  message: `${room} must not import from ${rooms.join(' or ')} (docs/architecture.md).`,
});

export default tseslint.config(
  { ignores: ['.tmp/**', 'dist/**', 'release/**', 'node_modules/**', 'artifacts/**'] },
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
  // Layers (docs/architecture.md): each room imports only from the rooms below it.
  {
    // The service core runs in plain Node and in Electron's main process alike: it must never
    // depend on Electron or on the renderer.
    files: ['electron/service/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [NO_ELECTRON], patterns: [NO_RENDERER] }],
    },
  },
  {
    // The domain speaks to stores through the repository interfaces only, and knows no HTTP.
    files: ['electron/service/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [NO_ELECTRON, NO_FASTIFY],
          patterns: [
            NO_RENDERER,
            below('domain', [
              'http',
              'store/embedded',
              'store/postgres',
              'store/sql',
              'question-log',
              'conversation',
              'chitchat',
              'publishing',
              'sign-in',
            ]),
          ],
        },
      ],
    },
  },
  {
    // The question log is a room beside the domain: index.ts plugs it in (the domain's
    // AskRecorder), http/ serves it; it reaches its store through repositories/ only.
    files: ['electron/service/question-log/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [NO_ELECTRON, NO_FASTIFY],
          patterns: [
            NO_RENDERER,
            below('question-log', ['http', 'store/embedded', 'store/postgres', 'store/sql']),
          ],
        },
      ],
    },
  },
  {
    // Publishing (versions, test sets) is a room beside the domain: it builds on the domain and
    // the repository interfaces; the domain reaches it only through its hooks (domain/editions.ts).
    files: ['electron/service/publishing/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [NO_ELECTRON, NO_FASTIFY],
          patterns: [
            NO_RENDERER,
            below('publishing', ['http', 'store/embedded', 'store/postgres', 'store/sql']),
          ],
        },
      ],
    },
  },
  {
    // Signing editors in (a team server's sessions and failed sign-ins) is a room beside the
    // domain: index.ts makes it, http/ admits console requests with it; it reaches its store
    // through repositories/ only.
    files: ['electron/service/sign-in/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [NO_ELECTRON, NO_FASTIFY],
          patterns: [
            NO_RENDERER,
            below('sign-in', ['http', 'store/embedded', 'store/postgres', 'store/sql']),
          ],
        },
      ],
    },
  },
  {
    // Storage, matching, auth, validation and the repository interfaces are below the domain.
    files: [
      'electron/service/store/**/*.ts',
      'electron/service/files/**/*.ts',
      'electron/service/matching/**/*.ts',
      'electron/service/auth/**/*.ts',
      'electron/service/validation/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [NO_ELECTRON, NO_FASTIFY],
          patterns: [
            NO_RENDERER,
            below('this room', ['domain', 'http', 'question-log', 'publishing', 'sign-in']),
          ],
        },
      ],
    },
  },
  {
    // Rooms beside the domain that the host plugs in (docs/architecture.md): the per-user
    // conversation memory, the built-in small talk and the similar-phrasing proposals. They know neither the domain (which must
    // not import them either: it receives them through its context) nor HTTP nor storage.
    files: [
      'electron/service/conversation/**/*.ts',
      'electron/service/chitchat/**/*.ts',
      'electron/service/simgen/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [NO_ELECTRON, NO_FASTIFY],
          patterns: [
            NO_RENDERER,
            below('this room', ['domain', 'http', 'store/embedded', 'store/postgres', 'store/sql']),
          ],
        },
      ],
    },
  },
  {
    // The editor talks to the service over HTTP: from the service it takes only types, limits,
    // validation and the signing client.
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/electron/*',
                '!**/electron/service',
                '!**/electron/client',
                '**/electron/service/*',
                '!**/electron/service/api-types',
                '!**/electron/service/console-types',
                '!**/electron/service/question-log-types',
                '!**/electron/service/publishing-types',
                '!**/electron/service/limits',
                '!**/electron/service/defaults',
                '!**/electron/service/validation',
              ],
              message:
                'The editor uses the service only over HTTP: import types, limits, defaults, validation or the client.',
            },
          ],
        },
      ],
    },
  },
);
