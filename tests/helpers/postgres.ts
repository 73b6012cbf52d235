/**
 * A throwaway PostgreSQL for tests: a cluster made with Debian's `initdb` in a temporary
 * directory, started on a free loopback port and removed when stopped. Nothing is mocked: the
 * team-server store is tested against the real server.
 *
 * `KB_TEST_PG_URL` (set by tests/run.mjs for a whole run) points every test process at one
 * cluster; each test then takes a database of its own in it (`freshDatabase`). Without it, the
 * first call starts a cluster for this process and stops it at exit.
 *
 * PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` account of
 * Debian's package and its programs run through `runuser`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface PostgresCluster {
  /** `postgres://kb@127.0.0.1:PORT/postgres`: the cluster's maintenance database. */
  url: string;
  stop(): void;
  /** Sends `signal` to every process of the running server (SIGSTOP freezes it, SIGCONT thaws). */
  signal(signal: 'SIGSTOP' | 'SIGCONT'): void;
  /** Stops the server as `pg_ctl stop -m fast` does (sessions ended, then it exits). */
  stopFast(): void;
  /** Starts the server again on the same port, after `stopFast`. */
  start(): void;
}

/** The server's processes: the postmaster (first line of postmaster.pid) and its children. */
function serverProcesses(data: string): number[] {
  const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        // Field 4 of /proc/PID/stat is the parent's pid (after the command name in parentheses).
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

/** Signals the server's processes; one that has just ended is skipped. */
function signalServer(data: string, signal: 'SIGSTOP' | 'SIGCONT'): void {
  for (const pid of serverProcesses(data)) {
    try {
      process.kill(pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
}

/** The directory of PostgreSQL's server programs: `KB_PG_BIN`, else Debian's newest. */
export function postgresBinDir(): string | undefined {
  const fromEnv = process.env.KB_PG_BIN;
  if (fromEnv) return fromEnv;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (typeof address === 'object' && address !== null) resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL program as the account that owns the cluster. */
function runPg(bin: string, program: string, args: string[]): void {
  const command = join(bin, program);
  const [file, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', command, ...args]]
    : [command, args];
  const result = spawnSync(file, argv, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(
      `${program} failed (${result.status}): ${result.stderr || result.stdout || result.error}`,
    );
  }
}

/** Makes and starts a cluster; `stop` stops it at once and deletes its files. */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (!bin) {
    throw new Error(
      'PostgreSQL is not installed: apt-get install postgresql (tests/prerequisites.mjs does it)',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'kbstudio-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  // --no-sync: a test cluster does not outlive the machine; the server itself runs with fsync on.
  runPg(bin, 'initdb', [
    '-D',
    data,
    '-U',
    'kb',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--no-locale',
    '--no-sync',
  ]);
  const port = await freePort();
  const start = () =>
    runPg(bin, 'pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'server.log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=300`,
      'start',
    ]);
  start();
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      // Thawed first: a frozen server would not stop.
      if (existsSync(join(data, 'postmaster.pid'))) {
        signalServer(data, 'SIGCONT');
        runPg(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  return {
    url: `postgres://kb@127.0.0.1:${port}/postgres`,
    stop,
    signal: (signal) => signalServer(data, signal),
    stopFast: () => runPg(bin, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    start,
  };
}

let ownCluster: Promise<PostgresCluster> | undefined;

/** The run's cluster (`KB_TEST_PG_URL`), or one started for this process. */
export async function testClusterUrl(): Promise<string> {
  const shared = process.env.KB_TEST_PG_URL;
  if (shared) return shared;
  ownCluster ??= startPostgresCluster().then((cluster) => {
    process.once('exit', () => cluster.stop());
    return cluster;
  });
  return (await ownCluster).url;
}

/**
 * A new, empty database in the test cluster; returns its URL. `icuLocale` gives it that
 * locale's collation (as a production cluster may have) instead of the cluster's byte order.
 */
export async function freshDatabase(
  label = 'kb',
  options: { icuLocale?: string } = {},
): Promise<string> {
  const clusterUrl = await testClusterUrl();
  const name = `${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: clusterUrl });
  await client.connect();
  try {
    const locale =
      options.icuLocale === undefined
        ? ''
        : ` LOCALE_PROVIDER icu ICU_LOCALE '${options.icuLocale.replace(/[^a-zA-Z_-]/g, '')}' TEMPLATE template0`;
    await client.query(`CREATE DATABASE ${name}${locale}`);
  } finally {
    await client.end();
  }
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
