/**
 * Editors signing in on a team server: an administrator's username and password give a session
 * token; the store keeps only its hash. Failed sign-ins are rate-limited per username and per
 * client address (lockout.ts); an unknown username and a wrong password fail alike, in about
 * the same time (a password is always checked against a hash).
 * @module
 */
import { createHash } from 'node:crypto';
import { randomToken } from '../auth/credentials';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { usernameKey } from '../domain/users';
import type { KbStore } from '../store/contract/store';
import { lockoutRemaining } from './lockout';
import type { SignInPolicy } from './policy';
import { notSignedIn, sessionExpired, signInFailed, tooManySignIns } from './sign-in-errors';

/** The role whose holders sign in to the editor. */
export const EDITOR_ROLE = 'ADMIN';

export interface SignInRequest {
  username: string;
  password: string;
  /** Which tenant, when the username and password open accounts in several. */
  tenantId?: number;
}

export type SignInOutcome =
  | { status: 'signed-in'; token: string; username: string; tenantId: number; expiresAt: number }
  | { status: 'choose-tenant'; tenantIds: number[] };

/** Who a session speaks for. */
export interface SignedInEditor {
  tenantId: number;
  userId: string;
  username: string;
}

export const tokenHash = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

export class EditorSessions {
  /** Checked when no account has the username, so that failing takes as long either way. */
  private readonly decoy = hashPassword(randomToken(16));

  constructor(
    private readonly store: KbStore,
    private readonly now: () => number,
    readonly policy: SignInPolicy,
  ) {}

  async signIn(request: SignInRequest, clientAddress: string): Promise<SignInOutcome> {
    const subjects = [`user:${usernameKey(request.username)}`, `address:${clientAddress}`];
    await this.assertNotLockedOut(subjects);
    const matching = await this.accountsOpenedBy(request);
    const [only] = matching;
    if (only === undefined) {
      const now = this.now();
      await this.store.signInFailures.record(subjects, now, now - this.policy.failureWindowMs);
      throw signInFailed();
    }
    if (matching.length > 1) {
      return { status: 'choose-tenant', tenantIds: matching.map((user) => user.tenantId) };
    }
    await this.store.signInFailures.clear(subjects[0] as string);
    const token = randomToken(32);
    const now = this.now();
    await this.store.sessions.insert(tokenHash(token), {
      tenantId: only.tenantId,
      userId: only.userId,
      createdAt: now,
      lastSeenAt: now,
    });
    return {
      status: 'signed-in',
      token,
      username: only.username,
      tenantId: only.tenantId,
      expiresAt: now + this.policy.sessionMaxMs,
    };
  }

  /** The editor a session token speaks for; 401 `not-signed-in` or `session-expired`. */
  async admit(token: string): Promise<SignedInEditor> {
    const hash = tokenHash(token);
    const session = token === '' ? undefined : await this.store.sessions.find(hash);
    if (!session) throw notSignedIn();
    const now = this.now();
    if (
      now - session.lastSeenAt > this.policy.sessionIdleMs ||
      now - session.createdAt > this.policy.sessionMaxMs
    ) {
      // Kept until the purge, so that the editor keeps hearing that it expired.
      throw sessionExpired();
    }
    // An administrator deleted, demoted or of a deleted tenant is signed out at once.
    const [user, tenantAlive] = await Promise.all([
      this.store.users.find(session.tenantId, session.userId),
      this.store.tenants.exists(session.tenantId),
    ]);
    if (!user || user.role !== EDITOR_ROLE || !tenantAlive) {
      await this.store.sessions.remove(hash);
      throw notSignedIn();
    }
    // Not every request writes: the last use is recorded a few times per idle period.
    if (now - session.lastSeenAt > Math.min(60_000, this.policy.sessionIdleMs / 4)) {
      await this.store.sessions.touch(hash, now);
    }
    return { tenantId: session.tenantId, userId: session.userId, username: user.username };
  }

  async signOut(token: string): Promise<void> {
    await this.store.sessions.remove(tokenHash(token));
  }

  /**
   * Forgets sessions expired over a day ago and failures older than the window (hourly). An
   * expired session is kept that long so that the editor is told it expired, not that it is
   * unknown.
   */
  async purge(): Promise<number> {
    const now = this.now();
    const day = 86_400_000;
    const sessions = await this.store.sessions.purgeExpired(
      now - this.policy.sessionIdleMs - day,
      now - this.policy.sessionMaxMs - day,
    );
    return sessions + (await this.store.signInFailures.purge(now - this.policy.failureWindowMs));
  }

  private async assertNotLockedOut(subjects: readonly string[]): Promise<void> {
    const now = this.now();
    const since = now - this.policy.failureWindowMs;
    let waitMs = 0;
    for (const subject of subjects) {
      const failures = await this.store.signInFailures.since(subject, since);
      waitMs = Math.max(waitMs, lockoutRemaining(failures, now, this.policy));
    }
    if (waitMs > 0) throw tooManySignIns(Math.ceil(waitMs / 1000));
  }

  /** The administrators the username and password open (of the tenant, when one is named). */
  private async accountsOpenedBy(request: SignInRequest) {
    const candidates = (await this.store.users.withUsernameKey(usernameKey(request.username)))
      .filter((user) => user.role === EDITOR_ROLE)
      .filter((user) => request.tenantId === undefined || user.tenantId === request.tenantId);
    if (candidates.length === 0) {
      await verifyPassword(request.password, await this.decoy);
      return [];
    }
    const opened = await Promise.all(
      candidates.map((user) => verifyPassword(request.password, user.passwordHash)),
    );
    return candidates.filter((_, i) => opened[i]);
  }
}
