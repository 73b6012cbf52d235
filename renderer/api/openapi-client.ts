/**
 * The openapi routes the editor calls itself (the batch import, the curl example), through the
 * project's one signing client (electron/client/openapi-client.ts), which runs in browsers too.
 * @module
 */
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { BatchImportResult, RuleInput } from '../../electron/service/api-types';
import type { ConsoleCustomer } from '../../electron/service/console-types';
import { ApiError } from './api-error';

/** A client of one robot's openapi routes; `baseUrl` '' means this page's own origin. */
export function robotClient(
  baseUrl: string,
  customer: ConsoleCustomer,
  tenantId: number,
  robotId: string,
  robotSecret: string,
): RobotClient {
  return new OpenApiClient({ baseUrl, ...customer }).robot(tenantId, robotId, robotSecret);
}

export async function sendBatch(
  customer: ConsoleCustomer,
  tenantId: number,
  robotId: string,
  robotSecret: string,
  rules: RuleInput[],
  signal?: AbortSignal,
): Promise<BatchImportResult> {
  const robot = robotClient('', customer, tenantId, robotId, robotSecret);
  let response;
  try {
    response = await robot.send<BatchImportResult>('POST', '/kb/rules/full/batch', {
      body: rules,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    throw new ApiError(0, 'network-error', error instanceof Error ? error.message : 'offline');
  }
  const { status, body } = response;
  if (body.code !== '0') throw new ApiError(status, body.code, body.msg ?? `HTTP ${status}`);
  return body.data as BatchImportResult;
}
