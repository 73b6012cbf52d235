/**
 * `npm run sign -- [options] METHOD PATH`: prints a signed URL and a ready curl command for one
 * openapi request.
 *   --data DIR           data directory whose credentials to use (default ./kb-data), unless the
 *                        KB_CUSTOMER_ID / KB_ADMIN_KEY / KB_ADMIN_SECRET variables are set
 *   --base URL           service address (default http://127.0.0.1:8787)
 *   --robot-secret S     the robot secret for method-2 paths; fetched from the service when omitted
 *   --body JSON          request body to put in the curl command
 * The signature method follows from the path (rules and ask are method 2).
 * @module
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { credentialsFromEnv, readCredentialsFile } from '../service/auth/credentials';
import { OpenApiClient } from '../client/openapi-client';

const METHOD_2 = /^\/v1\/openapi\/tenants\/(\d+)\/robots\/([^/]+)\/(kb\/rules|robot\/ask)/;

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      data: { type: 'string', default: './kb-data' },
      base: { type: 'string', default: 'http://127.0.0.1:8787' },
      'robot-secret': { type: 'string' },
      body: { type: 'string' },
    },
  });
  const [httpMethod, path] = positionals;
  if (!httpMethod || !path)
    throw new Error('usage: npm run sign -- [options] METHOD PATH (see electron/cli/sign.ts)');
  const credentials = credentialsFromEnv(process.env) ?? readCredentialsFile(resolve(values.data));
  if (!credentials)
    throw new Error(
      `no credentials: start the service once with --data ${values.data}, or set KB_*`,
    );
  const client = new OpenApiClient({ baseUrl: values.base.replace(/\/$/, ''), ...credentials });
  const [pathOnly, queryString] = path.split('?');
  const query = Object.fromEntries(new URLSearchParams(queryString ?? ''));
  const method2 = METHOD_2.exec(pathOnly ?? '');
  let robotSecret = values['robot-secret'];
  if (method2 && robotSecret === undefined) {
    const [, tenantId, robotId] = method2;
    const robots = await client.listRobots(Number(tenantId));
    robotSecret = robots.find(
      (robot) => robot.robotId === decodeURIComponent(robotId ?? ''),
    )?.robotSecret;
    if (robotSecret === undefined)
      throw new Error(`robot ${robotId} not found in tenant ${tenantId}`);
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
  console.error(`sign: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
