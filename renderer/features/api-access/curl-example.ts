import type { ConsoleCustomer } from '../../../electron/service/console-types';
import { OpenApiClient } from '../../../electron/client/openapi-client';

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function askPath(tenantId: number, robotId: string): string {
  return `/v1/openapi/tenants/${tenantId}/robots/${encodeURIComponent(robotId)}/robot/ask`;
}

/** The command as shown before it is revealed: the adminkey masked (the copy has it whole). */
export function maskAdminKey(command: string): string {
  return command.replace(/([?&]adminkey=)[^&' ]*/, `$1${'•'.repeat(8)}`);
}

/** A ready curl command asking `question`, signed at `signedAt` (good for one call, for 300 s). */
export function askCurl(
  baseUrl: string,
  customer: ConsoleCustomer,
  tenantId: number,
  robotId: string,
  robotSecret: string,
  question: string,
  signedAt: number,
): string {
  const client = new OpenApiClient({ baseUrl, ...customer, now: () => signedAt });
  const url = client.signedUrl(askPath(tenantId, robotId), { signMethod: 2, robotSecret });
  const body = JSON.stringify({ userId: 'u1', question, channel: 'API', questionType: 'TEXT' });
  return [
    `curl -s -X POST ${shellQuote(url)}`,
    `  -H 'Content-Type: application/json'`,
    `  -d ${shellQuote(body)}`,
  ].join(' \\\n');
}
