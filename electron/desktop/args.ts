/**
 * Command-line options of the desktop app, read from Electron's `process.argv` (which also holds
 * the executable, the app path in development and Chromium switches: unknown arguments are left
 * alone), and where the data directory is.
 * @module
 */
import { isAbsolute, join, resolve } from 'node:path';

export interface DesktopArgs {
  /** `--data DIR`: the data directory. */
  data?: string;
  /** `--port N`: the API port for this launch (0 picks a free one); overrides preferences. */
  port?: number;
  /** `--user-data-dir DIR`: Electron's userData folder (preferences, window state). */
  userDataDir?: string;
}

const OPTIONS = { '--data': 'data', '--port': 'port', '--user-data-dir': 'userDataDir' } as const;
type OptionName = keyof typeof OPTIONS;

function isOption(name: string): name is OptionName {
  return Object.hasOwn(OPTIONS, name);
}

/** Reads `--name value` and `--name=value`; throws an Error with a readable message when bad. */
export function parseDesktopArgs(argv: readonly string[]): DesktopArgs {
  const raw: Partial<Record<OptionName, string>> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (!isOption(name)) continue;
    const value = eq > 0 ? arg.slice(eq + 1) : argv[(i += 1)];
    if (value === undefined || value === '') throw new Error(`${name} needs a value`);
    raw[name] = value;
  }
  const args: DesktopArgs = {};
  if (raw['--data'] !== undefined) args.data = raw['--data'];
  if (raw['--user-data-dir'] !== undefined) args.userDataDir = raw['--user-data-dir'];
  if (raw['--port'] !== undefined) {
    const port = Number(raw['--port']);
    if (!/^\d+$/.test(raw['--port']) || port > 65535)
      throw new Error(`--port must be 0 to 65535, not ${raw['--port']}`);
    args.port = port;
  }
  return args;
}

export interface DataDirInput {
  flag?: string | undefined;
  env: NodeJS.ProcessEnv;
  /** `app.getPath('userData')`. */
  userDataPath: string;
  cwd: string;
}

export type DataDirSource = 'flag' | 'env' | 'default';

/** `--data DIR`, else `KB_DATA_DIR`, else `<userData>/data`; relative paths from `cwd`. */
export function resolveDataDir(input: DataDirInput): { dir: string; source: DataDirSource } {
  const fromCwd = (path: string) => (isAbsolute(path) ? path : resolve(input.cwd, path));
  if (input.flag) return { dir: fromCwd(input.flag), source: 'flag' };
  const env = input.env.KB_DATA_DIR?.trim();
  if (env) return { dir: fromCwd(env), source: 'env' };
  return { dir: join(input.userDataPath, 'data'), source: 'default' };
}
