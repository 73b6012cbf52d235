/**
 * Administrators of a tenant. Usernames are unique within a tenant, ASCII letters compared
 * case-insensitively; passwords are stored only as scrypt hashes and never returned.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { AddUserRequest, UpdateUserRequest, UserResult } from '../api-types';
import { hashPassword } from '../auth/passwords';
import { ServiceError } from '../errors';
import type { Tx } from '../storage/database';
import type { DomainContext } from './context';
import { assertTenantExists } from './tenant-lookup';

/** The uniqueness key of a username: only ASCII letters are case-folded (Han has no case). */
export function usernameKey(username: string): string {
  return username.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

interface NewUser {
  username: string;
  passwordHash: string;
  role: string;
}

export function insertUser(tx: Tx, tenantId: number, user: NewUser, now: number): string {
  const userId = randomUUID();
  tx.run(
    'INSERT INTO users (user_id, tenant_id, username, username_key, password_hash, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [
      userId,
      tenantId,
      user.username,
      usernameKey(user.username),
      user.passwordHash,
      user.role,
      now,
      now,
    ],
  );
  return userId;
}

function assertUsernameFree(
  tx: Tx,
  tenantId: number,
  username: string,
  exceptUserId?: string,
): void {
  const holder = tx.get<{ user_id: string }>(
    'SELECT user_id FROM users WHERE tenant_id = ? AND username_key = ?',
    [tenantId, usernameKey(username)],
  );
  if (holder && holder.user_id !== exceptUserId) {
    throw new ServiceError(
      'username-taken',
      `The username ${username} is already taken in this tenant.`,
    );
  }
}

function toUserResult(row: { user_id: string; username: string; role: string }): UserResult {
  return { userId: row.user_id, username: row.username, password: '', role: row.role };
}

export async function addUser(
  ctx: DomainContext,
  tenantId: number,
  input: AddUserRequest,
): Promise<UserResult> {
  assertTenantExists(ctx, tenantId);
  const passwordHash = await hashPassword(input.password);
  const userId = ctx.store.write((tx) => {
    // Checked inside the write: another request may have taken the name while we hashed.
    assertTenantExists(ctx, tenantId);
    assertUsernameFree(tx, tenantId, input.username);
    return insertUser(
      tx,
      tenantId,
      { username: input.username, passwordHash, role: input.role },
      ctx.now(),
    );
  });
  return toUserResult({ user_id: userId, username: input.username, role: input.role });
}

export async function updateUser(
  ctx: DomainContext,
  tenantId: number,
  userId: string,
  input: UpdateUserRequest,
): Promise<UserResult> {
  assertTenantExists(ctx, tenantId);
  const find = () =>
    ctx.store.get<{ user_id: string; username: string; role: string }>(
      'SELECT user_id, username, role FROM users WHERE tenant_id = ? AND user_id = ?',
      [tenantId, userId],
    );
  if (!find())
    throw new ServiceError(
      'user-not-found',
      `User ${userId} does not exist in tenant ${tenantId}.`,
    );
  const passwordHash =
    input.password === undefined ? undefined : await hashPassword(input.password);
  return ctx.store.write((tx) => {
    const current = find();
    if (!current)
      throw new ServiceError(
        'user-not-found',
        `User ${userId} does not exist in tenant ${tenantId}.`,
      );
    const username = input.username ?? current.username;
    const role = input.role ?? current.role;
    if (input.username !== undefined) assertUsernameFree(tx, tenantId, input.username, userId);
    tx.run(
      'UPDATE users SET username = ?, username_key = ?, role = ?, updated_at = ? WHERE user_id = ?',
      [username, usernameKey(username), role, ctx.now(), userId],
    );
    if (passwordHash !== undefined) {
      tx.run('UPDATE users SET password_hash = ? WHERE user_id = ?', [passwordHash, userId]);
    }
    return toUserResult({ user_id: userId, username, role });
  });
}
