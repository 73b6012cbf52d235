/**
 * Tenant registration: the tenant, its first administrator and its first robot, in one write.
 * Registering the same tenant twice (same administrator username, company and phone number) is
 * refused with the existing tenant's id, so that a client retrying a registration whose answer
 * it lost does not make a twin (docs/api.md, "Registering twice").
 * @module
 */
import type { RegisterTenantRequest, RegisterTenantResult } from '../api-types';
import { DEFAULT_ROBOT_NAMES } from '../console-types';
import { ServiceError } from '../errors';
import type { DomainContext } from './context';
import type { RobotLanguage } from './robot-settings';
import { DEFAULT_ROBOT_ID, newRobotRecord } from './robots';
import { followSemantic } from './semantic';
import { newUser, usernameKey } from './users';

/** Registrations run one at a time, so that two identical ones cannot both pass the check. */
const REGISTRATIONS = 'tenant-registrations';

/**
 * The tenant registered with this username, company and phone number, if there is one (a deleted
 * tenant, in the trash, does not count: registering again makes a new one).
 */
async function findTwin(ctx: DomainContext, input: RegisterTenantRequest): Promise<number | null> {
  const company = input.company.trim();
  const candidates = new Set(
    (await ctx.store.tenants.all())
      .filter(
        (t) =>
          t.deletedAt === null &&
          t.phoneNumber === input.phoneNumber &&
          t.company.trim() === company,
      )
      .map((t) => t.tenantId),
  );
  if (candidates.size === 0) return null;
  const key = usernameKey(input.username);
  const admin = (await ctx.store.users.all()).find(
    (user) => candidates.has(user.tenantId) && user.usernameKey === key,
  );
  return admin?.tenantId ?? null;
}

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
  return ctx.writes.run(REGISTRATIONS, async () => {
    const twin = await findTwin(ctx, input);
    if (twin !== null) {
      throw new ServiceError(
        'tenant-exists',
        `Tenant ${twin} was already registered with this username, company and phone number: use it, or register with other details.`,
      );
    }
    const now = ctx.now();
    const robot = newRobotRecord(
      DEFAULT_ROBOT_ID,
      DEFAULT_ROBOT_NAMES[language ?? 'en'],
      now,
      language,
    );
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
    // A service-wide embedding provider embeds the first robot's rules from its first import on.
    followSemantic(ctx, ctx.robots.put({ ...robot, tenantId }));
    return { tenantId };
  });
}
