/**
 * The team server's tenants and administrators (statements: sql/users.ts). Tenant ids come
 * from the column's sequence: nodes registering at once never take the same one (an id is not
 * given again after its tenant is purged, unlike SQLite's `MAX + 1`). The contract
 * (store/contract/tenants.ts) states what each method returns.
 * @module
 */
import type { NewUser } from '../../contract/records';
import type { TenantRegistration, TenantRepository, UserRepository } from '../../contract/tenants';
import { postgres } from '../../sql/dialect';
import * as users from '../../sql/users';
import type { Database, SqlValue, Tx } from '../database';
import { insertRobot, purgeRobots } from './robots';

const SQL = users.statements(postgres);

async function insertUser(tx: Tx, tenantId: number, user: NewUser, now: number) {
  await tx.run(SQL.insertUser, users.userParams(tenantId, user, now));
  return users.insertedUser(tenantId, user, now);
}

export class PostgresTenantRepository implements TenantRepository {
  constructor(private readonly db: Database) {}

  async register({ tenant, admin, robot }: TenantRegistration) {
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

  async exists(tenantId: number) {
    return (await this.db.get(SQL.tenantExists, [tenantId])) !== undefined;
  }

  async all() {
    return (await this.db.all<users.TenantRow>(SQL.tenants)).map(users.toTenantRecord);
  }

  async setDeleted(tenantId: number, at: number | null) {
    return (await this.db.write((tx) => tx.run(SQL.setTenantDeleted, [tenantId, at]))) > 0;
  }

  async purgeDeleted(before: number) {
    const doomed = (
      await this.db.all<{ tenant_id: number }>(SQL.tenantsDeletedBefore, [before])
    ).map((row) => Number(row.tenant_id));
    if (doomed.length === 0) return 0;
    await this.db.write(
      async (tx) => {
        const tenants: SqlValue[] = [doomed];
        await purgeRobots(tx, 'tenant_id = ANY($1::bigint[])', tenants);
        for (const table of ['users', 'deleted_users', 'tenants']) {
          await tx.run(`DELETE FROM ${table} WHERE tenant_id = ANY($1::bigint[])`, tenants);
        }
      },
      { long: true },
    );
    return doomed.length;
  }
}

export class PostgresUserRepository implements UserRepository {
  constructor(private readonly db: Database) {}

  async insert(tenantId: number, user: NewUser, now: number) {
    return this.db.write((tx) => insertUser(tx, tenantId, user, now));
  }

  async find(tenantId: number, userId: string) {
    const row = await this.db.get<users.UserRow>(SQL.findUser, [tenantId, userId]);
    return row && users.toUserRecord(row);
  }

  async update(tenantId: number, userId: string, changes: users.UserChanges, now: number) {
    const update = users.userUpdate(postgres, tenantId, userId, changes, now);
    // Looked at first: a refused call writes nothing.
    if (!(await this.find(tenantId, userId))) return undefined;
    return this.db.write(async (tx) => {
      const row = await tx.get<users.UserRow>(
        `${update.sql} RETURNING ${users.USER_COLUMNS}`,
        update.params,
      );
      return row && users.toUserRecord(row);
    });
  }

  async all() {
    return (await this.db.all<users.UserRow>(SQL.users)).map(users.toUserRecord);
  }

  async withUsernameKey(usernameKey: string) {
    return (await this.db.all<users.UserRowWithHash>(SQL.withUsernameKey, [usernameKey])).map(
      users.toUserWithHash,
    );
  }

  async remove(tenantId: number, userId: string, now: number) {
    const user = [tenantId, userId];
    if (!(await this.db.get(SQL.findUser, user))) return false;
    return this.db.write(async (tx) => {
      if ((await tx.run(SQL.trashUser, [...user, now])) === 0) return false;
      await tx.run(SQL.deleteUser, user);
      return true;
    });
  }

  async restore(tenantId: number, userId: string) {
    if (!(await this.db.get(SQL.inTrash, [tenantId, userId]))) return undefined;
    return this.db.write(async (tx) => {
      const row = await tx.get<users.UserRow>(
        `${SQL.untrashUser} RETURNING ${users.USER_COLUMNS}`,
        [tenantId, userId],
      );
      if (!row) return undefined;
      await tx.run(SQL.dropFromTrash, [userId]);
      return users.toUserRecord(row);
    });
  }

  async deleted() {
    return (await this.db.all<users.DeletedUserRow>(SQL.trash)).map(users.toDeletedUser);
  }

  async purgeDeleted(before: number) {
    if (!(await this.db.get(SQL.anyTrashBefore, [before]))) return 0;
    return this.db.write((tx) => tx.run(SQL.purgeTrashBefore, [before]));
  }
}
