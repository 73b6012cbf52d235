/**
 * Runs the built headless service (`dist/headless.js`, what `npm run serve` runs) as a child
 * process, for tests that kill it, race it or check its command line.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { TEST_ENV } from './service';
import { storeEnv } from './test-store';

export const HEADLESS = join(import.meta.dirname, '..', '..', 'dist', 'headless.js');

export interface ChildService {
  child: ChildProcess;
  url: string;
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

export interface SpawnOptions {
  env?: Record<string, string>;
  args?: string[];
  /** Another entry point taking the same arguments (default: the built headless service). */
  script?: string;
  /** Arguments for node itself, before the script (e.g. `--import tsx`). */
  nodeArgs?: string[];
}

/** Starts the service and resolves once it prints its `listening on` line. */
export async function spawnService(
  dataDir: string,
  options: SpawnOptions = {},
): Promise<ChildService> {
  const store = await storeEnv(dataDir);
  const child = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      options.script ?? HEADLESS,
      '--data',
      dataDir,
      '--port',
      '0',
      ...(options.args ?? []),
    ],
    {
      env: { ...process.env, ...TEST_ENV, ...store, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        resolve({ child, url: match[1], output: () => output, exited });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) =>
      reject(new Error(`service exited with ${code} before listening:\n${output}`)),
    );
  });
}

/** Runs the service expecting it to fail at start; resolves with its exit code and output. */
export async function runServiceExpectingFailure(
  dataDir: string,
  options: SpawnOptions = {},
): Promise<{ code: number | null; output: string }> {
  const store = await storeEnv(dataDir);
  const child = spawn(
    process.execPath,
    [HEADLESS, '--data', dataDir, '--port', '0', ...(options.args ?? [])],
    {
      env: { ...process.env, ...TEST_ENV, ...store, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
