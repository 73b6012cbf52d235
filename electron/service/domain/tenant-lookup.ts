import { ServiceError } from '../errors';
import type { DomainContext } from './context';

/** Throws the contract's 404 when the tenant does not exist. */
export async function assertTenantExists(ctx: DomainContext, tenantId: number): Promise<void> {
  if (!(await ctx.store.tenants.exists(tenantId))) {
    throw new ServiceError('tenant-not-found', `Tenant ${tenantId} does not exist.`);
  }
}
