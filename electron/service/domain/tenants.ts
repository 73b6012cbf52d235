/**
 * Tenant registration: the tenant, its first administrator and its first robot, in one write.
 * @module
 */
import type { RegisterTenantRequest, RegisterTenantResult } from '../api-types';
import type { DomainContext } from './context';
import { DEFAULT_ROBOT_ID, newRobotRecord } from './robots';
import { newUser } from './users';

export async function registerTenant(
  ctx: DomainContext,
  input: RegisterTenantRequest,
): Promise<RegisterTenantResult> {
  const admin = await newUser(input.username, input.password, 'ADMIN');
  const now = ctx.now();
  const robot = newRobotRecord(DEFAULT_ROBOT_ID, 'Default robot', now);
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
