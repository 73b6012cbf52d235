/**
 * Administrators of a tenant. Usernames are unique within a tenant, ASCII letters compared
 * case-insensitively; passwords are stored only as scrypt hashes and never returned.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { AddUserRequest, UpdateUserRequest, UserResult } from '../api-types';
import { hashPassword } from '../auth/passwords';
import { ServiceError } from '../errors';
import { UniqueViolation } from '../store/contract/errors';
import type { NewUser, UserRecord } from '../store/contract/records';
import type { DomainContext } from './context';
import { assertTenantExists } from './tenant-lookup';

/** The uniqueness key of a username: only ASCII letters are case-folded (Han has no case). */
export function usernameKey(username: string): string {
  return username.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** A new administrator's record, with the hash of its password. */
export async function newUser(username: string, password: string, role: string): Promise<NewUser> {
  // Hashing is slow by design; it runs before any write so the store is never held by it.
  return {
    userId: randomUUID(),
    username,
    usernameKey: usernameKey(username),
    role,
    passwordHash: await hashPassword(password),
  };
}

function usernameTaken(username: string): ServiceError {
  return new ServiceError(
    'username-taken',
    `The username ${username} is already taken in this tenant.`,
  );
}

function userNotFound(tenantId: number, userId: string): ServiceError {
  return new ServiceError('user-not-found', `User ${userId} does not exist in tenant ${tenantId}.`);
}

/** The store's uniqueness rule is the check: no window between a look and the write. */
async function guardUsername<T>(username: string, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof UniqueViolation && error.key === 'username') throw usernameTaken(username);
    throw error;
  }
}

function toUserResult(user: UserRecord): UserResult {
  return { userId: user.userId, username: user.username, password: '', role: user.role };
}

export async function addUser(
  ctx: DomainContext,
  tenantId: number,
  input: AddUserRequest,
): Promise<UserResult> {
  await assertTenantExists(ctx, tenantId);
  const user = await newUser(input.username, input.password, input.role);
  return toUserResult(
    await guardUsername(input.username, ctx.store.users.insert(tenantId, user, ctx.now())),
  );
}

export async function updateUser(
  ctx: DomainContext,
  tenantId: number,
  userId: string,
  input: UpdateUserRequest,
): Promise<UserResult> {
  await assertTenantExists(ctx, tenantId);
  if (!(await ctx.store.users.find(tenantId, userId))) throw userNotFound(tenantId, userId);
  const passwordHash =
    input.password === undefined ? undefined : await hashPassword(input.password);
  const updated = await guardUsername(
    input.username ?? '',
    ctx.store.users.update(
      tenantId,
      userId,
      {
        ...(input.username !== undefined
          ? { username: input.username, usernameKey: usernameKey(input.username) }
          : {}),
        ...(input.role !== undefined ? { role: input.role } : {}),
        ...(passwordHash !== undefined ? { passwordHash } : {}),
      },
      ctx.now(),
    ),
  );
  if (!updated) throw userNotFound(tenantId, userId);
  return toUserResult(updated);
}
