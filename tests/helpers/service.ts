/**
 * Test harness: a real service on a real port over a fresh temporary data directory, and a
 * signing client pointed at it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RobotClient } from '../../electron/client/openapi-client';
import { startService } from '../../electron/service/index';
import type { KbService, ServiceOptions } from '../../electron/service/index';
import { createConsoleLogger, silentLogger } from '../../electron/service/logger';
import { databaseFor } from './test-store';

export const TEST_CREDENTIALS = {
  customerId: 'cust-test',
  adminKey: 'ak-test',
  adminSecret: 'secret-test',
};

export const TEST_ENV = {
  KB_CUSTOMER_ID: TEST_CREDENTIALS.customerId,
  KB_ADMIN_KEY: TEST_CREDENTIALS.adminKey,
  KB_ADMIN_SECRET: TEST_CREDENTIALS.adminSecret,
};

export function makeDataDir(label = 'kb'): string {
  return mkdtempSync(join(tmpdir(), `kbstudio-${label}-`));
}

export interface TestService {
  service: KbService;
  client: OpenApiClient;
  dataDir: string;
  /** Stops and starts again on the same data directory. */
  restart(): Promise<void>;
  /** Stops the service and deletes its data directory. */
  close(): Promise<void>;
}

export async function startTestService(
  options: Partial<ServiceOptions> = {},
): Promise<TestService> {
  const dataDir = options.dataDir ?? makeDataDir();
  // KB_TEST_LOG=1 shows the service's log, for tracing a failing test.
  const logger =
    process.env.KB_TEST_LOG === '1' ? createConsoleLogger('test-service') : silentLogger;
  // KB_TEST_STORE=postgres runs the service on a PostgreSQL database of its data directory's
  // (a restart reuses it).
  const database = options.database ?? (await databaseFor(dataDir));
  const start = () =>
    startService({
      logger,
      env: TEST_ENV,
      ...options,
      ...(database !== undefined ? { database } : {}),
      dataDir,
      port: 0,
    });
  const harness: TestService = {
    service: await start(),
    client: undefined as unknown as OpenApiClient,
    dataDir,
    async restart() {
      await harness.service.stop();
      harness.service = await start();
      harness.client = clientFor(harness.service.url, options.now);
    },
    async close() {
      await harness.service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  harness.client = clientFor(harness.service.url, options.now);
  return harness;
}

function clientFor(baseUrl: string, now?: () => number): OpenApiClient {
  return new OpenApiClient({ baseUrl, ...TEST_CREDENTIALS, ...(now ? { now } : {}) });
}

let tenantCounter = 0;

/** A valid registration body; each call gets a distinct company so tests can tell them apart. */
export function tenantRequest(overrides: Record<string, unknown> = {}) {
  tenantCounter += 1;
  return {
    username: '管理员_admin',
    password: 'secret123',
    phoneNumber: '13800138000',
    mail: 'admin@example.com',
    company: `测试公司 ${tenantCounter}`,
    ...overrides,
  };
}

/** Registers a tenant and returns it with a client for its default robot. */
export async function registerTenantWithRobot(
  client: OpenApiClient,
): Promise<{ tenantId: number; robot: RobotClient }> {
  const { tenantId } = await client.registerTenant(tenantRequest());
  const robots = await client.listRobots(tenantId);
  const robot = robots.find((r) => r.robotId === 'default');
  if (!robot) throw new Error('registration made no default robot');
  return { tenantId, robot: client.robot(tenantId, robot.robotId, robot.robotSecret) };
}

/** A valid rule input. */
export function ruleInput(name: string, questions: string[], answer = `Answer for ${name}`) {
  return { ruleName: name, questions, answerContentType: 'TEXT' as const, answer };
}
