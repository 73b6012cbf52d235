/**
 * The editor's view of everything: the customer's credentials, tenants, their administrators and
 * robots (with secrets and settings). Served only to the console, behind its token.
 * @module
 */
import type { CustomerCredentials } from '../auth/credentials';
import type { ConsoleRobot, ConsoleTenant, ConsoleWorkspace } from '../console-types';
import type { DomainContext } from './context';
import type { Robot } from './robot-directory';
import { settingsInForce, withoutSecrets } from './robot-settings';

export function toConsoleRobot(ctx: DomainContext, robot: Robot): ConsoleRobot {
  return {
    robotId: robot.robotId,
    name: robot.name,
    robotSecret: robot.secret,
    ruleCount: ctx.robots.ruleCount(robot),
    settings: {
      ...withoutSecrets(robot.settings),
      synonyms: robot.settings.synonyms.map((group) => [...group]),
    },
    defaults: { ...withoutSecrets(settingsInForce({}, robot.settings.language)), synonyms: [] },
    embeddingKeySet: robot.settings.embeddingApiKey !== '',
  };
}

/**
 * `onlyTenant`: a signed-in administrator's tenant (team server): the workspace shows it alone,
 * and not the customer's credentials, which open every tenant.
 */
export async function getWorkspace(
  ctx: DomainContext,
  credentials: CustomerCredentials,
  baseUrl: string,
  onlyTenant: number | null = null,
): Promise<ConsoleWorkspace> {
  const [tenants, users] = await Promise.all([ctx.store.tenants.all(), ctx.store.users.all()]);
  return {
    baseUrl,
    customer:
      onlyTenant === null
        ? { ...credentials }
        : { customerId: credentials.customerId, adminKey: '', adminSecret: '' },
    tenants: tenants
      .filter((tenant) => tenant.deletedAt == null)
      .filter((tenant) => onlyTenant === null || tenant.tenantId === onlyTenant)
      .map((tenant): ConsoleTenant => ({
        tenantId: tenant.tenantId,
        company: tenant.company,
        mail: tenant.mail,
        phoneNumber: tenant.phoneNumber,
        createdAt: new Date(tenant.createdAt).toISOString(),
        users: users
          .filter((user) => user.tenantId === tenant.tenantId)
          .map((user) => ({ userId: user.userId, username: user.username, role: user.role })),
        robots: ctx.robots
          .listForTenant(tenant.tenantId)
          .map((robot) => toConsoleRobot(ctx, robot)),
      })),
  };
}
