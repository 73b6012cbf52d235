/**
 * The team server's tenants and administrators (the embedded store's statements in
 * PostgreSQL's SQL). Tenant ids come from the column's sequence: nodes registering at once never
 * take the same one (an id is not given again after its tenant is purged, unlike SQLite's
 * `MAX + 1`).
 * @module
 */
import type { DeletedUser, NewUser, TenantRecord, UserRecord } from '../../contract/records';
import type { TenantRegistration, TenantRepository, UserRepository } from '../../contract/tenants';
import type { Database, SqlValue, Tx } from '../database';
import {
  TRASH_USER_COLUMNS,
  USER_COLUMNS,
  toUserRecord,
} from '../../embedded/repositories/tenant-repository';
import type { UserRow } from '../../embedded/repositories/tenant-repository';
import { insertRobot, purgeRobots } from './robots';

const OF_USER = 'WHERE tenant_id = $1 AND user_id = $2';

async function insertUser(
  tx: Tx,
  tenantId: number,
  user: NewUser,
  now: number,
): Promise<UserRecord> {
  const row = await tx.get<UserRow>(
    `INSERT INTO users (user_id, tenant_id, username, username_key, password_hash, role, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING ${USER_COLUMNS}`,
    [user.userId, tenantId, user.username, user.usernameKey, user.passwordHash, user.role, now],
  );
  return toUserRecord(row as UserRow);
}

export class PostgresTenantRepository implements TenantRepository {
  constructor(private readonly db: Database) {}

  async register({ tenant, admin, robot }: TenantRegistration): Promise<number> {
    return this.db.write(async (tx) => {
      const row = await tx.get<{ tenant_id: number }>(
        `INSERT INTO tenants (phone_number, mail, company, created_at) VALUES ($1, $2, $3, $4)
         RETURNING tenant_id`,
        [tenant.phoneNumber, tenant.mail, tenant.company, tenant.createdAt],
      );
      const tenantId = Number(row?.tenant_id);
      await insertUser(tx, tenantId, admin, tenant.createdAt);
      await insertRobot(tx, { ...robot, tenantId });
      return tenantId;
    });
  }

  async exists(tenantId: number): Promise<boolean> {
    const row = await this.db.get(
      'SELECT 1 AS found FROM tenants WHERE tenant_id = $1 AND deleted_at IS NULL',
      [tenantId],
    );
    return row !== undefined;
  }

  async all(): Promise<TenantRecord[]> {
    const rows = await this.db.all<{
      tenant_id: number;
      phone_number: string;
      mail: string;
      company: string;
      created_at: number;
      deleted_at: number | null;
    }>(
      'SELECT tenant_id, phone_number, mail, company, created_at, deleted_at FROM tenants ORDER BY tenant_id',
    );
    return rows.map((row) => ({
      tenantId: Number(row.tenant_id),
      phoneNumber: row.phone_number,
      mail: row.mail,
      company: row.company,
      createdAt: Number(row.created_at),
      deletedAt: row.deleted_at === null ? null : Number(row.deleted_at),
    }));
  }

  async setDeleted(tenantId: number, at: number | null): Promise<boolean> {
    const changed = await this.db.write((tx) =>
      tx.run('UPDATE tenants SET deleted_at = $2 WHERE tenant_id = $1', [tenantId, at]),
    );
    return changed > 0;
  }

  async purgeDeleted(before: number): Promise<number> {
    const doomed = (
      await this.db.all<{ tenant_id: number }>(
        'SELECT tenant_id FROM tenants WHERE deleted_at < $1',
        [before],
      )
    ).map((row) => Number(row.tenant_id));
    if (doomed.length === 0) return 0;
    await this.db.write(async (tx) => {
      const tenants: SqlValue[] = [doomed];
      await purgeRobots(tx, 'tenant_id = ANY($1::bigint[])', tenants);
      for (const table of ['users', 'deleted_users', 'tenants']) {
        await tx.run(`DELETE FROM ${table} WHERE tenant_id = ANY($1::bigint[])`, tenants);
      }
    });
    return doomed.length;
  }
}

export class PostgresUserRepository implements UserRepository {
  constructor(private readonly db: Database) {}

  async insert(tenantId: number, user: NewUser, now: number): Promise<UserRecord> {
    return this.db.write((tx) => insertUser(tx, tenantId, user, now));
  }

  async find(tenantId: number, userId: string): Promise<UserRecord | undefined> {
    const row = await this.db.get<UserRow>(`SELECT ${USER_COLUMNS} FROM users ${OF_USER}`, [
      tenantId,
      userId,
    ]);
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
    const params: SqlValue[] = [tenantId, userId, now];
    const sets = ['updated_at = $3'];
    for (const [field, column] of Object.entries(columns) as [keyof typeof columns, string][]) {
      const value = changes[field];
      if (value === undefined) continue;
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    }
    // Looked at first: a refused call writes nothing.
    if (!(await this.find(tenantId, userId))) return undefined;
    return this.db.write(async (tx) => {
      const row = await tx.get<UserRow>(
        `UPDATE users SET ${sets.join(', ')} ${OF_USER} RETURNING ${USER_COLUMNS}`,
        params,
      );
      return row ? toUserRecord(row) : undefined;
    });
  }

  async all(): Promise<UserRecord[]> {
    const rows = await this.db.all<UserRow>(
      `SELECT ${USER_COLUMNS} FROM users ORDER BY created_at, username COLLATE "C"`,
    );
    return rows.map(toUserRecord);
  }

  async withUsernameKey(usernameKey: string): Promise<(UserRecord & { passwordHash: string })[]> {
    const rows = await this.db.all<UserRow & { password_hash: string }>(
      `SELECT ${USER_COLUMNS.replace(/(\w+)/g, 'u.$1')}, u.password_hash FROM users AS u
       JOIN tenants AS t ON t.tenant_id = u.tenant_id
       WHERE u.username_key = $1 AND t.deleted_at IS NULL ORDER BY u.tenant_id`,
      [usernameKey],
    );
    return rows.map((row) => ({ ...toUserRecord(row), passwordHash: row.password_hash }));
  }

  async remove(tenantId: number, userId: string, now: number): Promise<boolean> {
    if (!(await this.find(tenantId, userId))) return false;
    return this.db.write(async (tx) => {
      const moved = await tx.run(
        `INSERT INTO deleted_users (${TRASH_USER_COLUMNS}, deleted_at)
         SELECT ${TRASH_USER_COLUMNS}, $3 FROM users ${OF_USER}`,
        [tenantId, userId, now],
      );
      if (moved === 0) return false;
      await tx.run(`DELETE FROM users ${OF_USER}`, [tenantId, userId]);
      return true;
    });
  }

  async restore(tenantId: number, userId: string): Promise<UserRecord | undefined> {
    const inTrash = await this.db.get(`SELECT 1 AS found FROM deleted_users ${OF_USER}`, [
      tenantId,
      userId,
    ]);
    if (!inTrash) return undefined;
    return this.db.write(async (tx) => {
      const row = await tx.get<UserRow>(
        `INSERT INTO users (${TRASH_USER_COLUMNS})
         SELECT ${TRASH_USER_COLUMNS} FROM deleted_users ${OF_USER} RETURNING ${USER_COLUMNS}`,
        [tenantId, userId],
      );
      if (!row) return undefined;
      await tx.run('DELETE FROM deleted_users WHERE user_id = $1', [userId]);
      return toUserRecord(row);
    });
  }

  async deleted(): Promise<DeletedUser[]> {
    const rows = await this.db.all<UserRow & { deleted_at: number }>(
      `SELECT ${USER_COLUMNS}, deleted_at FROM deleted_users ORDER BY deleted_at DESC`,
    );
    return rows.map((row) => ({ ...toUserRecord(row), deletedAt: Number(row.deleted_at) }));
  }

  async purgeDeleted(before: number): Promise<number> {
    const due = 'FROM deleted_users WHERE deleted_at < $1';
    if (!(await this.db.get(`SELECT 1 AS found ${due} LIMIT 1`, [before]))) return 0;
    return this.db.write((tx) => tx.run(`DELETE ${due}`, [before]));
  }
}
