/**
 * The embedded store's tenants and administrators (statements: sql/users.ts). A new tenant's id
 * is the highest so far plus one. The contract (store/contract/tenants.ts) states what each
 * method returns.
 * @module
 */
import type { NewUser } from '../../contract/records';
import type { TenantRegistration, TenantRepository, UserRepository } from '../../contract/tenants';
import { sqlite } from '../../sql/dialect';
import * as users from '../../sql/users';
import type { Store, Tx } from '../database';
import { insertRobot, purgeRobot } from './robot-repository';
import { mappingUniqueViolations } from './unique-violations';

const SQL = users.statements(sqlite);

function insertUser(tx: Tx, tenantId: number, user: NewUser, now: number) {
  tx.run(SQL.insertUser, users.userParams(tenantId, user, now));
  return users.insertedUser(tenantId, user, now);
}

export class SqlJsTenantRepository implements TenantRepository {
  constructor(private readonly store: Store) {}

  async register({ tenant, admin, robot }: TenantRegistration) {
    return mappingUniqueViolations(() =>
      this.store.write((tx) => {
        const next = tx.get<{ next: number }>(
          'SELECT COALESCE(MAX(tenant_id), 0) + 1 AS next FROM tenants',
        );
        const tenantId = Number(next?.next ?? 1);
        tx.run(
          'INSERT INTO tenants (tenant_id, phone_number, mail, company, created_at) VALUES (?1, ?2, ?3, ?4, ?5)',
          [tenantId, tenant.phoneNumber, tenant.mail, tenant.company, tenant.createdAt],
        );
        insertUser(tx, tenantId, admin, tenant.createdAt);
        insertRobot(tx, { ...robot, tenantId });
        return tenantId;
      }),
    );
  }

  async exists(tenantId: number) {
    return this.store.get(SQL.tenantExists, [tenantId]) !== undefined;
  }

  async all() {
    return this.store.all<users.TenantRow>(SQL.tenants).map(users.toTenantRecord);
  }

  async setDeleted(tenantId: number, at: number | null) {
    return this.store.write((tx) => tx.run(SQL.setTenantDeleted, [tenantId, at])) > 0;
  }

  async purgeDeleted(before: number) {
    const doomed = this.store
      .all<{ tenant_id: number }>(SQL.tenantsDeletedBefore, [before])
      .map((row) => Number(row.tenant_id));
    if (doomed.length === 0) return 0;
    this.store.write((tx) => {
      for (const tenantId of doomed) {
        const robots = tx.all<{ robot_id: string }>(
          'SELECT robot_id FROM robots WHERE tenant_id = ?1',
          [tenantId],
        );
        for (const robot of robots) purgeRobot(tx, tenantId, robot.robot_id);
        for (const table of ['users', 'deleted_users', 'tenants']) {
          tx.run(`DELETE FROM ${table} WHERE tenant_id = ?1`, [tenantId]);
        }
      }
    });
    return doomed.length;
  }
}

export class SqlJsUserRepository implements UserRepository {
  constructor(private readonly store: Store) {}

  async insert(tenantId: number, user: NewUser, now: number) {
    return mappingUniqueViolations(() =>
      this.store.write((tx) => insertUser(tx, tenantId, user, now)),
    );
  }

  async find(tenantId: number, userId: string) {
    const row = this.store.get<users.UserRow>(SQL.findUser, [tenantId, userId]);
    return row && users.toUserRecord(row);
  }

  async update(tenantId: number, userId: string, changes: users.UserChanges, now: number) {
    const update = users.userUpdate(sqlite, tenantId, userId, changes, now);
    if (!this.store.get(SQL.findUser, [tenantId, userId])) return undefined;
    return mappingUniqueViolations(() =>
      this.store.write((tx) => {
        if (tx.run(update.sql, update.params) === 0) return undefined;
        const row = tx.get<users.UserRow>(SQL.userById, [userId]);
        return row && users.toUserRecord(row);
      }),
    );
  }

  async all() {
    return this.store.all<users.UserRow>(SQL.users).map(users.toUserRecord);
  }

  async withUsernameKey(usernameKey: string) {
    return this.store
      .all<users.UserRowWithHash>(SQL.withUsernameKey, [usernameKey])
      .map(users.toUserWithHash);
  }

  async remove(tenantId: number, userId: string, now: number) {
    const user = [tenantId, userId];
    // Looked at first: a refused call writes nothing (no journal record).
    if (!this.store.get(SQL.findUser, user)) return false;
    return this.store.write((tx) => {
      if (tx.run(SQL.trashUser, [...user, now]) === 0) return false;
      tx.run(SQL.deleteUser, user);
      return true;
    });
  }

  async restore(tenantId: number, userId: string) {
    if (!this.store.get(SQL.inTrash, [tenantId, userId])) return undefined;
    return mappingUniqueViolations(() =>
      this.store.write((tx) => {
        if (tx.run(SQL.untrashUser, [tenantId, userId]) === 0) return undefined;
        tx.run(SQL.dropFromTrash, [userId]);
        const row = tx.get<users.UserRow>(SQL.userById, [userId]);
        return row && users.toUserRecord(row);
      }),
    );
  }

  async deleted() {
    return this.store.all<users.DeletedUserRow>(SQL.trash).map(users.toDeletedUser);
  }

  async purgeDeleted(before: number) {
    // Looked at first: a purge with nothing to do writes nothing (no journal record).
    if (!this.store.get(SQL.anyTrashBefore, [before])) return 0;
    return this.store.write((tx) => tx.run(SQL.purgeTrashBefore, [before]));
  }
}
