/**
 * Tenant registration: the tenant, its first administrator and its first robot, in one write.
 * @module
 */
import type { RegisterTenantRequest, RegisterTenantResult } from '../api-types';
import { hashPassword } from '../auth/passwords';
import type { DomainContext } from './context';
import { DEFAULT_ROBOT_ID, insertRobot } from './robots';
import { insertUser } from './users';

export async function registerTenant(
  ctx: DomainContext,
  input: RegisterTenantRequest,
): Promise<RegisterTenantResult> {
  // Hashing is slow by design; it runs before the write so the database is never held by it.
  const passwordHash = await hashPassword(input.password);
  const now = ctx.now();
  const { tenantId, robot } = ctx.store.write((tx) => {
    const next = tx.get<{ next: number }>(
      'SELECT COALESCE(MAX(tenant_id), 0) + 1 AS next FROM tenants',
    );
    const id = Number(next?.next ?? 1);
    tx.run(
      'INSERT INTO tenants (tenant_id, phone_number, mail, company, created_at) VALUES (?, ?, ?, ?, ?)',
      [id, input.phoneNumber, input.mail, input.company, now],
    );
    insertUser(tx, id, { username: input.username, passwordHash, role: 'ADMIN' }, now);
    return { tenantId: id, robot: insertRobot(tx, id, DEFAULT_ROBOT_ID, 'Default robot', now) };
  });
  ctx.robots.put(tenantId, robot.robotId, robot.name, robot.secret, robot.settings);
  return { tenantId };
}
