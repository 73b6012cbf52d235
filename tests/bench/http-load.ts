/**
 * Requests-per-second measurements with autocannon (a separate load generator, so the figures
 * are the server's, not our client's): the ask route with a fresh signature per request, and a
 * bare Node HTTP server answering a fixed JSON body as the baseline of the same run.
 */
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import type { RobotClient } from '../../electron/client/openapi-client';

export interface LoadOptions {
  durationSec: number;
  connections: number;
}

async function run(options: autocannon.Options): Promise<number> {
  const result = await autocannon(options);
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`load run had ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return result.requests.average;
}

/** Signed ask requests, each with its own nonce, cycling through `questions`. */
export function askRps(
  robot: RobotClient,
  questions: readonly string[],
  load: LoadOptions,
): Promise<number> {
  const url = new URL(robot.client.config.baseUrl);
  let i = 0;
  const path = `${robot.basePath}/robot/ask`;
  return run({
    url: url.origin,
    duration: load.durationSec,
    connections: load.connections,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => {
          const signed = new URL(
            robot.client.signedUrl(path, { signMethod: 2, robotSecret: robot.robotSecret }),
          );
          const question = questions[i++ % questions.length] ?? '';
          return {
            ...request,
            path: `${signed.pathname}${signed.search}`,
            body: JSON.stringify({
              userId: 'bench',
              question,
              channel: 'API',
              questionType: 'TEXT',
            }),
          };
        },
      },
    ],
  });
}

const BARE_SERVER = `
const body = JSON.stringify({ code: '0', msg: 'success', data: { answerType: 'BESTMATCH', answerContentType: 'TEXT', answer: 'fixed', score: 1, items: null, module: 'KB' } });
require('node:http').createServer((req, res) => {
  req.resume();
  req.on('end', () => { res.setHeader('content-type', 'application/json'); res.end(body); });
}).listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port); });
`;

/** The same load against a bare Node server in its own process: the baseline. */
export async function bareRps(load: LoadOptions): Promise<number> {
  const child = spawn(process.execPath, ['-e', BARE_SERVER], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        const match = /listening on (\S+)/.exec(chunk.toString());
        if (match?.[1]) resolve(match[1]);
      });
      child.on('exit', () => reject(new Error('bare server exited')));
    });
    return await run({
      url,
      duration: load.durationSec,
      connections: load.connections,
      method: 'POST',
      body: JSON.stringify({
        userId: 'bench',
        question: 'q',
        channel: 'API',
        questionType: 'TEXT',
      }),
    });
  } finally {
    child.kill('SIGKILL');
  }
}
