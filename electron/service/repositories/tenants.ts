/**
 * Tenants and their administrators. Each method is one transaction.
 * @module
 */
import type { NewUser, RobotRecord, TenantRecord, UserRecord } from './records';

export interface TenantRegistration {
  tenant: Omit<TenantRecord, 'tenantId'>;
  admin: NewUser;
  /** The tenant's first robot (its tenantId is the new tenant's). */
  robot: Omit<RobotRecord, 'tenantId'>;
}

export interface TenantRepository {
  /** Creates the tenant, its first administrator and robot together; returns the new tenant id. */
  register(registration: TenantRegistration): Promise<number>;
  exists(tenantId: number): Promise<boolean>;
  all(): Promise<TenantRecord[]>;
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
}
