/**
 * The built headless service (`dist/headless.js`, what `npm run serve` runs) on its own data
 * directory and port, for one test. Its `editor:` line gives the editor's URL with the token.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const E2E_CREDENTIALS = {
  customerId: 'cust-e2e',
  adminKey: 'ak-e2e',
  adminSecret: 'secret-e2e',
};

const HEADLESS = join(import.meta.dirname, '..', '..', '..', 'dist', 'headless.js');

export interface RunningService {
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  /** The editor's URL with its token, as printed. */
  editorUrl: string;
  token: string;
  dataDir: string;
  /** Stops the service and starts it again on the same data directory and port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function waitForExit(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** The running process, its address as printed, and how to stop it. */
async function launch(
  dataDir: string,
  args: readonly string[],
): Promise<{ editorUrl: string; baseUrl: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [HEADLESS, '--data', dataDir, ...args], {
    env: {
      ...process.env,
      KB_CUSTOMER_ID: E2E_CREDENTIALS.customerId,
      KB_ADMIN_KEY: E2E_CREDENTIALS.adminKey,
      KB_ADMIN_SECRET: E2E_CREDENTIALS.adminSecret,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<{ editorUrl: string; baseUrl: string }>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const editor = /editor: (http:\/\/\S+)/.exec(output);
      const listening = /listening on (http:\/\/\S+)/.exec(output);
      if (editor?.[1] && listening?.[1]) resolve({ editorUrl: editor[1], baseUrl: listening[1] });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`service exited (${code}):\n${output}`)));
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await waitForExit(child);
  };
  try {
    return { ...(await ready), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** `args`: more of `npm run serve`'s options (`--team` …). */
export async function startService(args: readonly string[] = []): Promise<RunningService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kbstudio-e2e-'));
  let running: Awaited<ReturnType<typeof launch>>;
  try {
    running = await launch(dataDir, ['--port', '0', ...args]);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const service: RunningService = {
    baseUrl: running.baseUrl,
    editorUrl: running.editorUrl,
    token: new URL(running.editorUrl).searchParams.get('token') ?? '',
    dataDir,
    async restart() {
      await running.stop();
      const port = new URL(service.baseUrl).port;
      running = await launch(dataDir, ['--port', port, ...args]);
      service.baseUrl = running.baseUrl;
      service.editorUrl = running.editorUrl;
      service.token = new URL(running.editorUrl).searchParams.get('token') ?? '';
    },
    async stop() {
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return service;
}
