/**
 * The editor's view of everything: the customer's credentials, tenants, their administrators and
 * robots (with secrets and settings). Served only to the console, behind its token.
 * @module
 */
import type { CustomerCredentials } from '../auth/credentials';
import type { ConsoleRobot, ConsoleTenant, ConsoleWorkspace } from '../console-types';
import type { DomainContext } from './context';
import type { RobotEntry } from './robot-registry';

export function toConsoleRobot(robot: RobotEntry): ConsoleRobot {
  return {
    robotId: robot.robotId,
    name: robot.name,
    robotSecret: robot.secret,
    ruleCount: robot.index.size,
    settings: { ...robot.settings, synonyms: robot.settings.synonyms.map((group) => [...group]) },
  };
}

export function getWorkspace(
  ctx: DomainContext,
  credentials: CustomerCredentials,
  baseUrl: string,
): ConsoleWorkspace {
  const tenants = ctx.store.all<{
    tenant_id: number;
    company: string;
    mail: string;
    phone_number: string;
    created_at: number;
  }>('SELECT tenant_id, company, mail, phone_number, created_at FROM tenants ORDER BY tenant_id');
  const users = ctx.store.all<{
    tenant_id: number;
    user_id: string;
    username: string;
    role: string;
  }>('SELECT tenant_id, user_id, username, role FROM users ORDER BY created_at, username');
  return {
    baseUrl,
    customer: { ...credentials },
    tenants: tenants.map((tenant): ConsoleTenant => ({
      tenantId: tenant.tenant_id,
      company: tenant.company,
      mail: tenant.mail,
      phoneNumber: tenant.phone_number,
      createdAt: new Date(tenant.created_at).toISOString(),
      users: users
        .filter((user) => user.tenant_id === tenant.tenant_id)
        .map((user) => ({ userId: user.user_id, username: user.username, role: user.role })),
      robots: ctx.robots.listForTenant(tenant.tenant_id).map(toConsoleRobot),
    })),
  };
}
