import { ServiceError } from '../errors';
import type { DomainContext } from './context';

/** Throws the contract's 404 when the tenant does not exist. */
export function assertTenantExists(ctx: DomainContext, tenantId: number): void {
  if (!ctx.store.get('SELECT 1 AS found FROM tenants WHERE tenant_id = ?', [tenantId])) {
    throw new ServiceError('tenant-not-found', `Tenant ${tenantId} does not exist.`);
  }
}
