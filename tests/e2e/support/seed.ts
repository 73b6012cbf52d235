/**
 * Data put in place through the service's own APIs before a test drives the editor: tenants
 * through the console API, many rules at once through the signed openapi batch route.
 */
import { OpenApiClient } from '../../../electron/client/openapi-client';
import { consoleClient } from '../../helpers/console-client';
import type { ConsoleWorkspace } from '../../../electron/service/console-types';
import type { BatchImportResult, RuleInput } from '../../../electron/service/api-types';
import { E2E_CREDENTIALS } from './service';
import type { RunningService } from './service';

export interface SeededRobot {
  tenantId: number;
  robotId: string;
  robotSecret: string;
}

export async function registerTenant(
  service: RunningService,
  company = 'Acme 演示公司',
): Promise<SeededRobot> {
  const api = consoleClient(service.baseUrl, service.token);
  const { tenantId } = await api.ok<{ tenantId: number }>('POST', '/tenants', {
    username: 'admin_01',
    password: 'secret123',
    phoneNumber: '13800138000',
    mail: 'admin@example.com',
    company,
  });
  const workspace = await api.ok<ConsoleWorkspace>('GET', '/workspace');
  const robot = workspace.tenants.find((t) => t.tenantId === tenantId)?.robots[0];
  if (!robot) throw new Error('no default robot');
  return { tenantId, robotId: robot.robotId, robotSecret: robot.robotSecret };
}

/** Sends rules through the batch route (1000 a call), signed with method 2. */
export async function importRules(
  service: RunningService,
  robot: SeededRobot,
  rules: RuleInput[],
): Promise<BatchImportResult> {
  const result: BatchImportResult = { failInfo: [], succeed: [] };
  for (let start = 0; start < rules.length; start += 1000) {
    const part = await sendBatch(service, robot, rules.slice(start, start + 1000));
    result.failInfo.push(...part.failInfo.map((f) => ({ ...f, index: f.index + start })));
    result.succeed.push(...part.succeed);
  }
  return result;
}

function sendBatch(
  service: RunningService,
  robot: SeededRobot,
  rules: RuleInput[],
): Promise<BatchImportResult> {
  return new OpenApiClient({ baseUrl: service.baseUrl, ...E2E_CREDENTIALS })
    .robot(robot.tenantId, robot.robotId, robot.robotSecret)
    .importRules(rules);
}

export function sampleRules(count: number, prefix = 'Rule'): RuleInput[] {
  return Array.from({ length: count }, (_, i) => ({
    ruleName: `${prefix} ${String(i + 1).padStart(4, '0')}`,
    questions: [`question ${prefix} ${i + 1}`, `另一种问法 ${prefix} ${i + 1}`],
    answerContentType: 'TEXT' as const,
    answer: `Answer number ${i + 1} of ${prefix}.`,
  }));
}
