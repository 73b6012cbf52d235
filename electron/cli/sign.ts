/**
 * `npm run sign -- [options] METHOD PATH`: prints a signed URL and a ready curl command for one
 * openapi request. Run from its bundle (dist/sign.js, by build/sign.mjs): see USAGE.
 * @module
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { credentialsFromEnv, readCredentialsFile } from '../service/auth/credentials';
import { OpenApiClient } from '../client/openapi-client';

const USAGE = `usage: npm run -s sign -- [options] METHOD PATH

Prints a signed URL for one request to the KB Studio API, and a ready curl command.
The signature method follows from the path (batch import, rules and ask are method 2).
A signed URL is good for one request, within 300 seconds.

  METHOD               GET, POST or PUT
  PATH                 the route's path, with its query if any, e.g.
                       /v1/openapi/tenants/1/robots/default/kb/rules?page=0&pageSize=20
options:
  --data DIR           data directory whose credentials.json to use (default ./kb-data); the
                       KB_CUSTOMER_ID, KB_ADMIN_KEY and KB_ADMIN_SECRET variables win when set
  --base URL           the service's address (default http://127.0.0.1:8787)
  --robot-secret S     the robot's secret for method-2 paths; when omitted it is fetched from
                       the service at --base (which must then be running)
  --body JSON          the request body to put in the curl command
  -h, --help           this text

example:
  npm run -s sign -- --data ./kb-data --body '{"userId":"u1","question":"hello","channel":"API","questionType":"TEXT"}' \\
    POST /v1/openapi/tenants/1/robots/default/robot/ask`;

const METHOD_2 = /^\/v1\/openapi\/tenants\/(\d+)\/robots\/([^/]+)\/(kb\/rules|robot\/ask)/;

class UsageError extends Error {}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Node's fetch says only "fetch failed"; the cause says why (ECONNREFUSED, ENOTFOUND, …). */
function unreachable(base: string, error: unknown): Error {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message ?? (error as Error).message;
  return new Error(
    `could not reach the service at ${base} (${why}) to fetch the robot's secret: start it (npm run serve), pass --base with its address, or give --robot-secret`,
  );
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        data: { type: 'string', default: './kb-data' },
        base: { type: 'string', default: 'http://127.0.0.1:8787' },
        'robot-secret': { type: 'string' },
        body: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const [httpMethod, path, extra] = positionals;
  if (!httpMethod || !path || extra !== undefined)
    throw new UsageError('give the HTTP method and the path, and nothing else');
  if (!path.startsWith('/'))
    throw new UsageError(`the path must start with /, not ${path} (the address goes in --base)`);
  const credentials = credentialsFromEnv(process.env) ?? readCredentialsFile(resolve(values.data));
  if (!credentials)
    throw new Error(
      `no credentials in ${resolve(values.data)}: start the service once with --data ${values.data}, or set KB_CUSTOMER_ID, KB_ADMIN_KEY and KB_ADMIN_SECRET`,
    );
  const base = values.base.replace(/\/$/, '');
  const client = new OpenApiClient({ baseUrl: base, ...credentials });
  const [pathOnly, queryString] = path.split('?');
  const query = Object.fromEntries(new URLSearchParams(queryString ?? ''));
  const method2 = METHOD_2.exec(pathOnly ?? '');
  let robotSecret = values['robot-secret'];
  if (method2 && robotSecret === undefined) {
    const [, tenantId, robotId] = method2;
    const robots = await client.listRobots(Number(tenantId)).catch((error: unknown) => {
      throw error instanceof TypeError ? unreachable(base, error) : error;
    });
    robotSecret = robots.find(
      (robot) => robot.robotId === decodeURIComponent(robotId ?? ''),
    )?.robotSecret;
    if (robotSecret === undefined)
      throw new Error(`robot ${robotId} not found in tenant ${tenantId} at ${base}`);
  }
  const url = client.signedUrl(pathOnly ?? '', {
    signMethod: method2 ? 2 : 1,
    ...(robotSecret !== undefined ? { robotSecret } : {}),
    query,
  });
  const curl = [
    `curl -s -X ${httpMethod.toUpperCase()}`,
    shellQuote(url),
    `-H 'Content-Type: application/json'`,
  ];
  if (values.body !== undefined) curl.push(`-d ${shellQuote(values.body)}`);
  console.log(url);
  console.log(curl.join(' '));
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`sign: ${message}`);
  if (error instanceof UsageError) console.error('(npm run -s sign -- --help for the usage)');
  process.exit(error instanceof UsageError ? 2 : 1);
});
