import { ServiceError } from '../errors';

/** `{tenantId}` is a decimal integer without leading zeros; anything else names no tenant. */
export function parseTenantId(raw: string): number {
  if (!/^[1-9]\d{0,14}$/.test(raw))
    throw new ServiceError('tenant-not-found', `Tenant ${raw} does not exist.`);
  return Number(raw);
}
