/**
 * Asks one question at a time, for as long as it runs, and prints each ask's latency as a line
 * `<epoch ms at its end> <ms>` (` failed` after it when the ask failed): the question log's volume bench times asks with it while the
 * editor's reads run, in a process of its own so that reading large answers does not delay the
 * asks being timed. `node --import tsx tests/bench/ask-probe.ts URL TENANT SECRET QUESTIONS_JSON`.
 * @module
 */
import { readFileSync } from 'node:fs';
import { OpenApiClient } from '../../electron/client/openapi-client';
import { TEST_CREDENTIALS } from '../helpers/service';

const [url = '', tenant = '', secret = '', questionsFile = ''] = process.argv.slice(2);
const questions = JSON.parse(readFileSync(questionsFile, 'utf8')) as string[];
const robot = new OpenApiClient({ baseUrl: url, ...TEST_CREDENTIALS }).robot(
  Number(tenant),
  'default',
  secret,
);
process.stdin.on('data', () => process.exit(0));
process.stdin.on('end', () => process.exit(0));
let lines: string[] = [];
setInterval(() => {
  if (lines.length === 0) return;
  process.stdout.write(`${lines.join('\n')}\n`);
  lines = [];
}, 50);
for (let i = 0; ; i++) {
  const start = performance.now();
  // A failed ask (the service reset the connection) is timed like the others, and counted.
  const failed = await robot
    .ask(questions[i % questions.length] ?? 'hello', `probe-${i % 50}`)
    .then(
      () => '',
      () => ' failed',
    );
  lines.push(`${Date.now()} ${(performance.now() - start).toFixed(3)}${failed}`);
  // About 100 asks a second at most: a steady trickle, not a load.
  const spent = performance.now() - start;
  if (spent < 10) await new Promise((resolve) => setTimeout(resolve, 10 - spent));
}
