/**
 * Tenants and administrators as both stores keep them, and the statements both run on
 * `tenants`, `users` and `deleted_users` (each in its dialect). How a new tenant gets its id is
 * each store's own.
 * @module
 */
import type { DeletedUser, NewUser, TenantRecord, UserRecord } from '../contract/records';
import type { UserRepository } from '../contract/tenants';
import { assignments, spelled } from './dialect';
import type { Dialect, Scalar } from './dialect';

export const USER_COLUMNS =
  'user_id, tenant_id, username, username_key, role, created_at, updated_at';
/** An administrator's row moved between `users` and the trash. */
const TRASH_USER_COLUMNS = `${USER_COLUMNS}, password_hash`;

export interface UserRow {
  [column: string]: string | number;
  user_id: string;
  tenant_id: number;
  username: string;
  username_key: string;
  role: string;
  created_at: number;
  updated_at: number;
}

export function toUserRecord(row: UserRow): UserRecord {
  return {
    userId: row.user_id,
    tenantId: Number(row.tenant_id),
    username: row.username,
    usernameKey: row.username_key,
    role: row.role,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export type DeletedUserRow = UserRow & { deleted_at: number };
export type UserRowWithHash = UserRow & { password_hash: string };

export const toDeletedUser = (row: DeletedUserRow): DeletedUser => ({
  ...toUserRecord(row),
  deletedAt: Number(row.deleted_at),
});

export const toUserWithHash = (row: UserRowWithHash): UserRecord & { passwordHash: string } => ({
  ...toUserRecord(row),
  passwordHash: row.password_hash,
});

/** The record of an administrator just inserted (`insertUser`, `userParams`). */
export const insertedUser = (tenantId: number, user: NewUser, now: number): UserRecord => ({
  userId: user.userId,
  tenantId,
  username: user.username,
  usernameKey: user.usernameKey,
  role: user.role,
  createdAt: now,
  updatedAt: now,
});

export const userParams = (tenantId: number, user: NewUser, now: number): Scalar[] => [
  user.userId,
  tenantId,
  user.username,
  user.usernameKey,
  user.passwordHash,
  user.role,
  now,
];

export interface TenantRow {
  [column: string]: string | number | null;
  tenant_id: number;
  phone_number: string;
  mail: string;
  company: string;
  created_at: number;
  deleted_at: number | null;
}

export const toTenantRecord = (row: TenantRow): TenantRecord => ({
  tenantId: Number(row.tenant_id),
  phoneNumber: row.phone_number,
  mail: row.mail,
  company: row.company,
  createdAt: Number(row.created_at),
  deletedAt: row.deleted_at === null ? null : Number(row.deleted_at),
});

/** ?1: the tenant, ?2: the administrator. */
const OF_USER = 'WHERE tenant_id = ?1 AND user_id = ?2';

export function statements<L>(dialect: Dialect<L>) {
  return spelled(dialect, {
    tenantExists: 'SELECT 1 AS found FROM tenants WHERE tenant_id = ?1 AND deleted_at IS NULL',
    tenants:
      'SELECT tenant_id, phone_number, mail, company, created_at, deleted_at FROM tenants ORDER BY tenant_id',
    /** ?2: deleted since, or null (restored). */
    setTenantDeleted: 'UPDATE tenants SET deleted_at = ?2 WHERE tenant_id = ?1',
    tenantsDeletedBefore: 'SELECT tenant_id FROM tenants WHERE deleted_at < ?1',
    /** `userParams`: created and updated at ?7. */
    insertUser: `INSERT INTO users (user_id, tenant_id, username, username_key, password_hash, role, created_at, updated_at)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)`,
    findUser: `SELECT ${USER_COLUMNS} FROM users ${OF_USER}`,
    users: `SELECT ${USER_COLUMNS} FROM users ORDER BY created_at, ${dialect.bytes('username')}`,
    withUsernameKey: `SELECT ${USER_COLUMNS.replace(/(\w+)/g, 'u.$1')}, u.password_hash FROM users AS u
      JOIN tenants AS t ON t.tenant_id = u.tenant_id
      WHERE u.username_key = ?1 AND t.deleted_at IS NULL ORDER BY u.tenant_id`,
    /** ?3: when. */
    trashUser: `INSERT INTO deleted_users (${TRASH_USER_COLUMNS}, deleted_at)
      SELECT ${TRASH_USER_COLUMNS}, ?3 FROM users ${OF_USER}`,
    deleteUser: `DELETE FROM users ${OF_USER}`,
    inTrash: `SELECT 1 AS found FROM deleted_users ${OF_USER}`,
    untrashUser: `INSERT INTO users (${TRASH_USER_COLUMNS})
      SELECT ${TRASH_USER_COLUMNS} FROM deleted_users ${OF_USER}`,
    /** After `untrashUser` (user ids are unique across tenants). */
    dropFromTrash: 'DELETE FROM deleted_users WHERE user_id = ?1',
    /** After a change (user ids are unique across tenants). */
    userById: `SELECT ${USER_COLUMNS} FROM users WHERE user_id = ?1`,
    trash: `SELECT ${USER_COLUMNS}, deleted_at FROM deleted_users ORDER BY deleted_at DESC`,
    anyTrashBefore: 'SELECT 1 AS found FROM deleted_users WHERE deleted_at < ?1 LIMIT 1',
    purgeTrashBefore: 'DELETE FROM deleted_users WHERE deleted_at < ?1',
  });
}

/** What an update of an administrator may change. */
export type UserChanges = Parameters<UserRepository['update']>[2];

/** The columns of what an update may change. */
const CHANGEABLE = {
  username: 'username',
  usernameKey: 'username_key',
  role: 'role',
  passwordHash: 'password_hash',
};

/** An administrator's update (?1: the tenant, ?2: the administrator) and its parameters. */
export function userUpdate<L>(
  dialect: Dialect<L>,
  tenantId: number,
  userId: string,
  changes: UserChanges,
  now: number,
): { sql: string; params: Scalar[] } {
  const { sets, values } = assignments(dialect, CHANGEABLE, changes, 4);
  const set = [`updated_at = ${dialect.param(3)}`, ...sets].join(', ');
  return {
    sql: dialect.text(`UPDATE users SET ${set} ${OF_USER}`),
    params: [tenantId, userId, now, ...values],
  };
}
