/**
 * The embedded store's tenants and administrators.
 * @module
 */
import type { DeletedUser, NewUser, TenantRecord, UserRecord } from '../../contract/records';
import type { TenantRegistration, TenantRepository, UserRepository } from '../../contract/tenants';
import type { SqlParam, Store, Tx } from '../database';
import { insertRobot, purgeRobot } from './robot-repository';
import { mappingUniqueViolations } from './unique-violations';

export const USER_COLUMNS =
  'user_id, tenant_id, username, username_key, role, created_at, updated_at';
export const TRASH_USER_COLUMNS = `${USER_COLUMNS}, password_hash`;
const OF_USER = 'WHERE tenant_id = ? AND user_id = ?';

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

function insertUser(tx: Tx, tenantId: number, user: NewUser, now: number): UserRecord {
  tx.run(
    'INSERT INTO users (user_id, tenant_id, username, username_key, password_hash, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [
      user.userId,
      tenantId,
      user.username,
      user.usernameKey,
      user.passwordHash,
      user.role,
      now,
      now,
    ],
  );
  return {
    userId: user.userId,
    tenantId,
    username: user.username,
    usernameKey: user.usernameKey,
    role: user.role,
    createdAt: now,
    updatedAt: now,
  };
}

export class SqlJsTenantRepository implements TenantRepository {
  constructor(private readonly store: Store) {}

  async register({ tenant, admin, robot }: TenantRegistration): Promise<number> {
    return mappingUniqueViolations(() =>
      this.store.write((tx) => {
        const next = tx.get<{ next: number }>(
          'SELECT COALESCE(MAX(tenant_id), 0) + 1 AS next FROM tenants',
        );
        const tenantId = Number(next?.next ?? 1);
        tx.run(
          'INSERT INTO tenants (tenant_id, phone_number, mail, company, created_at) VALUES (?, ?, ?, ?, ?)',
          [tenantId, tenant.phoneNumber, tenant.mail, tenant.company, tenant.createdAt],
        );
        insertUser(tx, tenantId, admin, tenant.createdAt);
        insertRobot(tx, { ...robot, tenantId });
        return tenantId;
      }),
    );
  }

  async exists(tenantId: number): Promise<boolean> {
    return (
      this.store.get('SELECT 1 AS found FROM tenants WHERE tenant_id = ? AND deleted_at IS NULL', [
        tenantId,
      ]) !== undefined
    );
  }

  async all(): Promise<TenantRecord[]> {
    return this.store
      .all<{
        tenant_id: number;
        phone_number: string;
        mail: string;
        company: string;
        created_at: number;
        deleted_at: number | null;
      }>(
        'SELECT tenant_id, phone_number, mail, company, created_at, deleted_at FROM tenants ORDER BY tenant_id',
      )
      .map((row) => ({
        tenantId: Number(row.tenant_id),
        phoneNumber: row.phone_number,
        mail: row.mail,
        company: row.company,
        createdAt: Number(row.created_at),
        deletedAt: row.deleted_at === null ? null : Number(row.deleted_at),
      }));
  }

  async setDeleted(tenantId: number, at: number | null): Promise<boolean> {
    return (
      this.store.write((tx) =>
        tx.run('UPDATE tenants SET deleted_at = ? WHERE tenant_id = ?', [at, tenantId]),
      ) > 0
    );
  }

  async purgeDeleted(before: number): Promise<number> {
    const doomed = this.store
      .all<{ tenant_id: number }>('SELECT tenant_id FROM tenants WHERE deleted_at < ?', [before])
      .map((row) => Number(row.tenant_id));
    if (doomed.length === 0) return 0;
    this.store.write((tx) => {
      for (const tenantId of doomed) {
        const robots = tx.all<{ robot_id: string }>(
          'SELECT robot_id FROM robots WHERE tenant_id = ?',
          [tenantId],
        );
        for (const robot of robots) purgeRobot(tx, tenantId, robot.robot_id);
        for (const table of ['users', 'deleted_users', 'tenants']) {
          tx.run(`DELETE FROM ${table} WHERE tenant_id = ?`, [tenantId]);
        }
      }
    });
    return doomed.length;
  }
}

export class SqlJsUserRepository implements UserRepository {
  constructor(private readonly store: Store) {}

  async insert(tenantId: number, user: NewUser, now: number): Promise<UserRecord> {
    return mappingUniqueViolations(() =>
      this.store.write((tx) => insertUser(tx, tenantId, user, now)),
    );
  }

  async find(tenantId: number, userId: string): Promise<UserRecord | undefined> {
    const row = this.store.get<UserRow>(
      `SELECT ${USER_COLUMNS} FROM users WHERE tenant_id = ? AND user_id = ?`,
      [tenantId, userId],
    );
    return row ? toUserRecord(row) : undefined;
  }

  async update(
    tenantId: number,
    userId: string,
    changes: Partial<Pick<UserRecord, 'username' | 'usernameKey' | 'role'>> & {
      passwordHash?: string;
    },
    now: number,
  ): Promise<UserRecord | undefined> {
    const columns = {
      username: 'username',
      usernameKey: 'username_key',
      role: 'role',
      passwordHash: 'password_hash',
    } as const;
    const sets = ['updated_at = ?'];
    const values: SqlParam[] = [now];
    for (const [field, column] of Object.entries(columns) as [keyof typeof columns, string][]) {
      const value = changes[field];
      if (value === undefined) continue;
      sets.push(`${column} = ?`);
      values.push(value);
    }
    if (!this.store.get(`SELECT 1 AS found FROM users ${OF_USER}`, [tenantId, userId])) {
      return undefined;
    }
    return mappingUniqueViolations(() =>
      this.store.write((tx) => {
        const changed = tx.run(
          `UPDATE users SET ${sets.join(', ')} WHERE tenant_id = ? AND user_id = ?`,
          [...values, tenantId, userId],
        );
        if (changed === 0) return undefined;
        const row = tx.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE user_id = ?`, [
          userId,
        ]);
        return row ? toUserRecord(row) : undefined;
      }),
    );
  }

  async all(): Promise<UserRecord[]> {
    return this.store
      .all<UserRow>(`SELECT ${USER_COLUMNS} FROM users ORDER BY created_at, username`)
      .map(toUserRecord);
  }

  async withUsernameKey(usernameKey: string): Promise<(UserRecord & { passwordHash: string })[]> {
    return this.store
      .all<UserRow & { password_hash: string }>(
        `SELECT ${USER_COLUMNS.replace(/(\w+)/g, 'u.$1')}, u.password_hash FROM users AS u
         JOIN tenants AS t ON t.tenant_id = u.tenant_id
         WHERE u.username_key = ? AND t.deleted_at IS NULL ORDER BY u.tenant_id`,
        [usernameKey],
      )
      .map((row) => ({ ...toUserRecord(row), passwordHash: row.password_hash }));
  }

  async remove(tenantId: number, userId: string, now: number): Promise<boolean> {
    // Looked at first: a refused call writes nothing (no journal record).
    if (!this.store.get(`SELECT 1 AS found FROM users ${OF_USER}`, [tenantId, userId]))
      return false;
    return this.store.write((tx) => {
      const moved = tx.run(
        `INSERT INTO deleted_users (${TRASH_USER_COLUMNS}, deleted_at)
         SELECT ${TRASH_USER_COLUMNS}, ? FROM users WHERE tenant_id = ? AND user_id = ?`,
        [now, tenantId, userId],
      );
      if (moved === 0) return false;
      tx.run('DELETE FROM users WHERE tenant_id = ? AND user_id = ?', [tenantId, userId]);
      return true;
    });
  }

  async restore(tenantId: number, userId: string): Promise<UserRecord | undefined> {
    if (!this.store.get(`SELECT 1 AS found FROM deleted_users ${OF_USER}`, [tenantId, userId])) {
      return undefined;
    }
    return mappingUniqueViolations(() =>
      this.store.write((tx) => {
        const moved = tx.run(
          `INSERT INTO users (${TRASH_USER_COLUMNS})
           SELECT ${TRASH_USER_COLUMNS} FROM deleted_users WHERE tenant_id = ? AND user_id = ?`,
          [tenantId, userId],
        );
        if (moved === 0) return undefined;
        tx.run('DELETE FROM deleted_users WHERE user_id = ?', [userId]);
        const row = tx.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE user_id = ?`, [
          userId,
        ]);
        return row ? toUserRecord(row) : undefined;
      }),
    );
  }

  async deleted(): Promise<DeletedUser[]> {
    return this.store
      .all<UserRow & { deleted_at: number }>(
        `SELECT ${USER_COLUMNS}, deleted_at FROM deleted_users ORDER BY deleted_at DESC`,
      )
      .map((row) => ({ ...toUserRecord(row), deletedAt: Number(row.deleted_at) }));
  }

  async purgeDeleted(before: number): Promise<number> {
    // Looked at first: a purge with nothing to do writes nothing (no journal record).
    if (
      !this.store.get('SELECT 1 AS found FROM deleted_users WHERE deleted_at < ? LIMIT 1', [before])
    ) {
      return 0;
    }
    return this.store.write((tx) =>
      tx.run('DELETE FROM deleted_users WHERE deleted_at < ?', [before]),
    );
  }
}
