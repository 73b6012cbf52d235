/**
 * Requests-per-second measurements with autocannon (a separate load generator, so the figures
 * are the server's, not our client's): the ask route with a fresh signature per request, and a
 * bare Node HTTP server answering a fixed JSON body as the baseline of the same run.
 *
 * Both runs put the same work on the load generator: each request is built by the same
 * `setupRequest`, which signs a fresh URL (node:crypto MD5 and a counter nonce: a few
 * microseconds) and picks the next question. The bare server ignores both. Otherwise the
 * generator, which shares the machine's two cores with the server, would spend more per ask
 * request than per bare request and the ratio would measure the generator as much as the service.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { computeSign } from '../../electron/service/auth/signature';
import { TEST_CREDENTIALS } from '../helpers/service';

export interface LoadOptions {
  durationSec: number;
  connections: number;
}

/** What signs an ask request of one robot. */
export interface AskTarget {
  /** Origin of the service, e.g. http://127.0.0.1:8787. */
  origin: string;
  /** `/v1/openapi/tenants/{t}/robots/{r}` */
  basePath: string;
  robotSecret: string;
  credentials: { customerId: string; adminKey: string; adminSecret: string };
}

/** What signs the asks of `robot` on the service listening at `url`. */
export function askTarget(
  service: { url: string },
  robot: { basePath: string; robotSecret: string },
): AskTarget {
  return {
    origin: new URL(service.url).origin,
    basePath: robot.basePath,
    robotSecret: robot.robotSecret,
    credentials: TEST_CREDENTIALS,
  };
}

async function run(options: autocannon.Options): Promise<number> {
  const result = await autocannon(options);
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`load run had ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return result.requests.average;
}

/** Signed ask requests, each with its own nonce, cycling through `questions`. */
function askRequests(target: AskTarget, questions: readonly string[]): autocannon.Request {
  const path = `${target.basePath}/robot/ask`;
  const { customerId, adminKey, adminSecret } = target.credentials;
  const noncePrefix = `b${randomBytes(6).toString('hex')}`;
  let i = 0;
  const bodies = questions.map((question) =>
    JSON.stringify({ userId: 'bench', question, channel: 'API', questionType: 'TEXT' }),
  );
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    setupRequest: (request) => {
      const nonce = `${noncePrefix}${(i++).toString(36)}`;
      const timestamp = String(Date.now());
      const sign = computeSign(2, {
        adminkey: adminKey,
        adminsecret: adminSecret,
        customerId,
        nonce,
        timestamp,
        uri: path,
        robotsecret: target.robotSecret,
      });
      const query = `adminkey=${encodeURIComponent(adminKey)}&customerId=${encodeURIComponent(customerId)}&nonce=${nonce}&timestamp=${timestamp}&sign=${sign}`;
      return { ...request, path: `${path}?${query}`, body: bodies[i % bodies.length] ?? '' };
    },
  };
}

export function askRps(
  target: AskTarget,
  questions: readonly string[],
  load: LoadOptions,
): Promise<number> {
  return run({
    url: target.origin,
    duration: load.durationSec,
    connections: load.connections,
    requests: [askRequests(target, questions)],
  });
}

const BARE_SERVER = `
const body = JSON.stringify({ code: '0', msg: 'success', data: { answerType: 'BESTMATCH', answerContentType: 'TEXT', answer: 'fixed', score: 1, items: null, module: 'KB' } });
require('node:http').createServer((req, res) => {
  req.resume();
  req.on('end', () => { res.setHeader('content-type', 'application/json'); res.end(body); });
}).listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port); });
`;

/**
 * The same load against a bare Node server in its own process: the baseline. The requests are
 * built exactly as for `askRps` (the server ignores path, query and body).
 */
export async function bareRps(
  target: AskTarget,
  questions: readonly string[],
  load: LoadOptions,
): Promise<number> {
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
      requests: [askRequests(target, questions)],
    });
  } finally {
    child.kill('SIGKILL');
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;

/**
 * The ask loads and the bare baseline in alternating rounds, each figure the median of its
 * rounds: a burst of other work on the shared machine then moves one round, not a whole figure
 * and with it the ratio.
 */
export async function alternatingRps(
  loads: Record<string, (round: number) => Promise<number>>,
  rounds: number,
): Promise<Record<string, number>> {
  const samples: Record<string, number[]> = {};
  for (let round = 0; round < rounds; round++) {
    for (const [name, load] of Object.entries(loads))
      (samples[name] ??= []).push(await load(round));
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, values]) => [name, median(values)]),
  );
}
