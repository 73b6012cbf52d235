// What `npm test` (and `npm run test:e2e`) needs besides node_modules, checked before anything
// runs: a Node.js the tooling supports, for the browser tests Debian's Chromium at
// /usr/bin/chromium with a CJK font (Playwright never downloads a browser here), and for the
// team server's tests PostgreSQL's server programs (a throwaway cluster is made with initdb,
// tests/helpers/postgres.ts; Debian's package also starts a cluster of its own, unused). What is missing
// is installed with apt-get where this user may (root, or sudo without a password), as
// .ci/run does on a fresh machine; otherwise it stops at once with the one command to run.
// No dependencies: it runs before `npm ci` too (.ci/run).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const CHROMIUM = '/usr/bin/chromium';
const PACKAGES = ['chromium', 'fonts-wqy-microhei', 'postgresql'];

/** Whether Debian's PostgreSQL server programs are installed (any version). */
function hasPostgres() {
  const root = '/usr/lib/postgresql';
  if (process.env.KB_PG_BIN) return existsSync(`${process.env.KB_PG_BIN}/initdb`);
  if (!existsSync(root)) return false;
  return readdirSync(root).some((version) => existsSync(`${root}/${version}/bin/initdb`));
}

/** The Node.js versions of package.json's engines: what Vite 8 and ESLint 10 require. */
function nodeSupported([major, minor]) {
  return (major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major >= 23;
}

function succeeds(command, args) {
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'pipe', 'ignore'],
    encoding: 'utf8',
  });
  return result.status === 0 ? result.stdout : null;
}

function missingPackages() {
  const missing = [];
  if (!existsSync(CHROMIUM)) missing.push('chromium');
  if (!succeeds('fc-list', [':lang=zh', 'family'])?.trim()) missing.push('fonts-wqy-microhei');
  if (!hasPostgres()) missing.push('postgresql');
  return missing;
}

function stop(lines) {
  console.error(lines.join('\n'));
  process.exit(1);
}

/** Installs the packages with apt-get when this user may; false when it may not. */
function install(packages) {
  if (!succeeds('sh', ['-c', 'command -v apt-get'])) return false;
  const root = process.getuid?.() === 0;
  if (!root && succeeds('sudo', ['-n', 'true']) === null) return false;
  console.log(`installing ${packages.join(' ')} for the tests (apt-get)…`);
  const run = (args) =>
    spawnSync(root ? args[0] : 'sudo', root ? args.slice(1) : ['-n', ...args], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    }).status === 0;
  return run(['apt-get', 'update', '-qq']) && run(['apt-get', 'install', '-y', '-qq', ...packages]);
}

export function checkPrerequisites({ browsers = true } = {}) {
  const version = process.versions.node.split('.').map(Number);
  if (!nodeSupported(version)) {
    stop([
      `Node.js ${process.versions.node} is too old for the build tools (Vite, ESLint): use 20.19 or newer in 20.x, or 22.12 or newer.`,
      'For example: nvm install 22 && nvm use 22',
    ]);
  }
  if (!browsers) return;
  const missing = missingPackages();
  if (missing.length === 0) return;
  if (install(missing) && missingPackages().length === 0) return;
  stop([
    `The tests need Chromium at ${CHROMIUM}, a CJK font and PostgreSQL's server programs; missing here: ${missing.join(', ')}.`,
    'They could not be installed automatically (apt-get, as root or with sudo). Run:',
    '',
    `  sudo apt-get install -y ${PACKAGES.join(' ')}`,
    '',
    'then npm test again. (Elsewhere than Debian or Ubuntu: put Chromium at /usr/bin/chromium, install a Chinese font, and set KB_PG_BIN to the folder of PostgreSQL’s initdb and pg_ctl.)',
  ]);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  checkPrerequisites();
}
