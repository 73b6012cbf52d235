/**
 * Tenants and their administrators. Each method is one transaction.
 * @module
 */
import type { DeletedUser, NewUser, RobotRecord, TenantRecord, UserRecord } from './records';

export interface TenantRegistration {
  tenant: Omit<TenantRecord, 'tenantId'>;
  admin: NewUser;
  /** The tenant's first robot (its tenantId is the new tenant's). */
  robot: Omit<RobotRecord, 'tenantId'>;
}

export interface TenantRepository {
  /** Creates the tenant, its first administrator and robot together; returns the new tenant id. */
  register(registration: TenantRegistration): Promise<number>;
  /** Whether the tenant exists and is not deleted. */
  exists(tenantId: number): Promise<boolean>;
  /** Every tenant, deleted ones included (with `deletedAt`). */
  all(): Promise<TenantRecord[]>;
  /** Marks a tenant deleted (`at`) or restores it (null); false when it does not exist. */
  setDeleted(tenantId: number, at: number | null): Promise<boolean>;
  /**
   * Deletes for good the tenants deleted before `before`, with their administrators, robots,
   * rules and categories.
   */
  purgeDeleted(before: number): Promise<number>;
}

export interface UserRepository {
  /** Throws `UniqueViolation('username')` when the key is held in the tenant. */
  insert(tenantId: number, user: NewUser, now: number): Promise<UserRecord>;
  find(tenantId: number, userId: string): Promise<UserRecord | undefined>;
  /**
   * Sets what is given (a new username with its key, role, password hash); undefined when the
   * user does not exist. Throws `UniqueViolation('username')`.
   */
  update(
    tenantId: number,
    userId: string,
    changes: Partial<Pick<UserRecord, 'username' | 'usernameKey' | 'role'>> & {
      passwordHash?: string;
    },
    now: number,
  ): Promise<UserRecord | undefined>;
  /** Every administrator of every tenant, oldest first. */
  all(): Promise<UserRecord[]>;
  /**
   * The administrators holding a username key, in every tenant not deleted, with their password
   * hashes (signing in), oldest tenant first.
   */
  withUsernameKey(usernameKey: string): Promise<(UserRecord & { passwordHash: string })[]>;
  /** Moves an administrator to the trash; false when it does not exist. */
  remove(tenantId: number, userId: string, now: number): Promise<boolean>;
  /** Puts an administrator back; throws `UniqueViolation('username')`; undefined if unknown. */
  restore(tenantId: number, userId: string): Promise<UserRecord | undefined>;
  /** Administrators in the trash, most recently deleted first. */
  deleted(): Promise<DeletedUser[]>;
  purgeDeleted(before: number): Promise<number>;
}
