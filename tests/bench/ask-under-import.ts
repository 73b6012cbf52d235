/**
 * Ask latency while the service imports: p99 of questions asked one after the other over HTTP,
 * first with nothing else going on (idle), then while two other tenants each import batches of
 * 1000 rules back to back (the same run, the same service, the same kind of questions). The
 * importers run in a process of their own (import-load.ts): their client work must not delay
 * the asks being timed. The slowest single ask under import is reported as the stall.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { RobotClient } from '../../electron/client/openapi-client';
import { percentile } from './stats';

const IMPORT_LOAD = join(import.meta.dirname, 'import-load.ts');

export interface AskUnderImport {
  askP99IdleMs: number;
  askP99UnderImportMs: number;
  /** The slowest single ask under import. */
  askMaxUnderImportMs: number;
  /** Asks timed under import (the p99 is of these). */
  asksUnderImport: number;
  /** Rules the two importers wrote while the asks were timed. */
  importedRules: number;
  /** What the asks cost the imports: rules the two importers wrote per second, together. */
  importRulesPerSec: number;
}

async function timed(robot: RobotClient, question: string): Promise<number> {
  const start = performance.now();
  await robot.ask(question);
  return performance.now() - start;
}

/**
 * @param robot the robot asked (its rules already imported)
 * @param questions questions not asked before: the first half is asked idle, the second under
 *   import (cycled if the import outlasts them)
 * @param rulesPerImporter rules each of the two importers writes, in batches of 1000
 */
export async function askUnderImport(
  url: string,
  robot: RobotClient,
  questions: readonly string[],
  rulesPerImporter: number,
): Promise<AskUnderImport> {
  const half = questions.length >> 1;
  const idle: number[] = [];
  for (const question of questions.slice(0, half)) idle.push(await timed(robot, question));

  const load = spawn(
    process.execPath,
    ['--import', 'tsx', IMPORT_LOAD, url, String(rulesPerImporter), '7'],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let output = '';
  const waiting = new Set<() => void>();
  load.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    for (const check of waiting) check();
  });
  const exited = new Promise<number | null>((resolve) => load.on('exit', resolve));
  const line = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(output);
        if (!match) return;
        waiting.delete(check);
        resolve(match);
      };
      waiting.add(check);
      check();
      void exited.then(() => reject(new Error(`import load exited: ${output}`)));
    });
  await line(/^ready$/m);
  load.stdin.write('go\n');
  const importStart = performance.now();
  let importing = true;
  let importMs = 0;
  const done = line(/^imported (\d+)$/m).finally(() => {
    importing = false;
    importMs = performance.now() - importStart;
  });
  const underLoad = questions.slice(half);
  const loaded: number[] = [];
  for (let i = 0; importing; i++)
    loaded.push(await timed(robot, underLoad[i % underLoad.length] ?? ''));
  const importedRules = Number((await done)[1]);
  await exited;
  return {
    askP99IdleMs: percentile(idle, 99),
    askP99UnderImportMs: percentile(loaded, 99),
    askMaxUnderImportMs: Math.max(...loaded),
    asksUnderImport: loaded.length,
    importedRules,
    importRulesPerSec: importedRules / (importMs / 1000),
  };
}
