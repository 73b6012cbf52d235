/**
 * Tenant registration: the tenant, its first administrator and its first robot, in one write.
 * @module
 */
import type { RegisterTenantRequest, RegisterTenantResult } from '../api-types';
import type { DomainContext } from './context';
import type { RobotLanguage } from './robot-settings';
import { DEFAULT_ROBOT_ID, newRobotRecord } from './robots';
import { newUser } from './users';

/**
 * Registers a tenant. `language`: the editor's, when registered there (the first robot's default
 * texts are then in it).
 */
export async function registerTenant(
  ctx: DomainContext,
  input: RegisterTenantRequest,
  language?: RobotLanguage,
): Promise<RegisterTenantResult> {
  const admin = await newUser(input.username, input.password, 'ADMIN');
  const now = ctx.now();
  const robot = newRobotRecord(DEFAULT_ROBOT_ID, 'Default robot', now, language);
  const tenantId = await ctx.store.tenants.register({
    tenant: {
      phoneNumber: input.phoneNumber,
      mail: input.mail,
      company: input.company,
      createdAt: now,
    },
    admin,
    robot,
  });
  ctx.robots.put({ ...robot, tenantId });
  return { tenantId };
}
