/**
 * Editors signing in on a team server: an administrator's username and password give a session
 * token; the store keeps only its hash. Every attempt is reserved in the store before any
 * password is hashed and counted per address, account and pair (attempt-plan.ts), atomically
 * across nodes; an unknown username and a wrong password fail alike, in about the same time (a
 * password is always checked against a hash). An administrator lists their sessions and ends
 * them, one or all; a password or role change ends them all (triggers of migration 0008).
 * @module
 */
import { createHash } from 'node:crypto';
import { randomToken } from '../auth/credentials';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { usernameKey } from '../domain/users';
import type { UserRecord } from '../store/contract/records';
import type { EditorSession } from '../store/contract/sessions';
import type { KbStore } from '../store/contract/store';
import {
  accountSubject,
  addressSubject,
  pairSubject,
  planAttempt,
  subjectsOf,
} from './attempt-plan';
import type { AttemptPlan, Candidate } from './attempt-plan';
import type { SignInPolicy } from './policy';
import { notSignedIn, sessionExpired, signInFailed, tooManySignIns } from './sign-in-errors';

/** The role whose holders sign in to the editor. */
export const EDITOR_ROLE = 'ADMIN';

/** A browser's `User-Agent` is kept this long at most (the list of sessions shows it). */
const USER_AGENT_MAX = 200;

export interface SignInRequest {
  username: string;
  password: string;
  /** Which tenant, when the username and password open accounts in several. */
  tenantId?: number;
}

/** Where an attempt comes from. */
export interface SignInClient {
  /** The client address (`request.ip`: the balancer's, unless its X-Forwarded-For is trusted). */
  address: string;
  userAgent: string;
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

/** One session of an administrator, as their list shows it. */
export interface SessionView {
  /** Names the session in the list (not its token, nor its hash). */
  sessionId: string;
  /** The session the list was asked with. */
  current: boolean;
  signedInAt: number;
  lastSeenAt: number;
  /** When it ends if used until then (its absolute limit). */
  expiresAt: number;
  address: string;
  userAgent: string;
}

export const tokenHash = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

/** A session's name in its list: derived from its hash, which it does not reveal. */
const sessionIdOf = (hash: string): string =>
  createHash('sha256').update(`session/${hash}`).digest('base64url').slice(0, 16);

const accountOf = (user: Pick<UserRecord, 'tenantId' | 'userId'>) =>
  `${user.tenantId}/${user.userId}`;

type Admin = UserRecord & { passwordHash: string };

export class EditorSessions {
  /** Checked when no account has the username, so that failing takes as long either way. */
  private readonly decoy = hashPassword(randomToken(16));

  constructor(
    private readonly store: KbStore,
    private readonly now: () => number,
    readonly policy: SignInPolicy,
  ) {}

  async signIn(request: SignInRequest, client: SignInClient): Promise<SignInOutcome> {
    const { address } = client;
    const now = this.now();
    const admins = await this.adminsNamed(request);
    const accounts = new Map<string, Admin | null>(
      admins.length > 0
        ? admins.map((user) => [accountOf(user), user])
        : // A username no account has counts as an account of its own (attempt-plan.ts).
          [[`name:${request.tenantId ?? '*'}:${usernameKey(request.username)}`, null]],
    );
    const since = now - this.policy.knownClientMs;
    const candidates: Candidate[] = await Promise.all(
      [...accounts].map(async ([account, user]) => ({
        account,
        known:
          user !== null && (await this.store.signInFailures.isKnownClient(account, address, since)),
      })),
    );
    const attempt = { id: randomToken(12), at: now, since: now - this.policy.failureWindowMs };
    const plan = await this.store.signInFailures.reserve<AttemptPlan>(
      attempt,
      subjectsOf(address, candidates),
      (failures) => {
        const planned = planAttempt(failures, address, candidates, this.policy, now);
        return { record: planned.status === 'go' ? planned.record : [], result: planned };
      },
    );
    if (plan.status === 'wait') throw tooManySignIns(Math.ceil(plan.waitMs / 1000));
    const tried = plan.tried.map((c) => ({ account: c.account, user: accounts.get(c.account) }));
    const opened = await this.opened(request.password, tried);
    // What the attempt recorded stays as failures unless it opened accounts: then the address
    // and those accounts take theirs back, and the pair starts again from none.
    if (opened.length === 0) throw signInFailed();
    await this.store.signInFailures.release(attempt.id, [
      addressSubject(address),
      ...opened.flatMap((user) => [
        accountSubject(accountOf(user)),
        pairSubject(address, accountOf(user)),
      ]),
    ]);
    for (const user of opened) {
      await this.store.signInFailures.clear(pairSubject(address, accountOf(user)));
      await this.store.signInFailures.rememberClient(accountOf(user), address, now);
    }
    const [only] = opened;
    if (only === undefined || opened.length > 1) {
      return { status: 'choose-tenant', tenantIds: opened.map((user) => user.tenantId) };
    }
    const token = randomToken(32);
    // The session starts now, not when the attempt did: the hash and the writes take a while.
    const openedAt = this.now();
    await this.store.sessions.insert(tokenHash(token), {
      tenantId: only.tenantId,
      userId: only.userId,
      createdAt: openedAt,
      lastSeenAt: openedAt,
      address,
      userAgent: client.userAgent.slice(0, USER_AGENT_MAX),
    });
    return {
      status: 'signed-in',
      token,
      username: only.username,
      tenantId: only.tenantId,
      expiresAt: openedAt + this.policy.sessionMaxMs,
    };
  }

  /** The editor a session token speaks for; 401 `not-signed-in` or `session-expired`. */
  async admit(token: string): Promise<SignedInEditor> {
    const hash = tokenHash(token);
    const session = token === '' ? undefined : await this.store.sessions.find(hash);
    if (!session) throw notSignedIn();
    const now = this.now();
    if (this.expired(session, now)) {
      // Kept until the purge, so that the editor keeps hearing that it expired.
      throw sessionExpired();
    }
    // An administrator deleted, demoted or of a deleted tenant is signed out at once (the
    // store's triggers end such sessions too; this covers a session read just before).
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

  /** The administrator's sessions still open, the newest first. */
  async list(editor: SignedInEditor, currentToken: string): Promise<SessionView[]> {
    const now = this.now();
    const current = tokenHash(currentToken);
    const sessions = await this.store.sessions.ofUser(editor.tenantId, editor.userId);
    return sessions
      .filter((session) => !this.expired(session, now))
      .map((session) => ({
        sessionId: sessionIdOf(session.tokenHash),
        current: session.tokenHash === current,
        signedInAt: session.createdAt,
        lastSeenAt: session.lastSeenAt,
        expiresAt: session.createdAt + this.policy.sessionMaxMs,
        address: session.address,
        userAgent: session.userAgent,
      }));
  }

  /** Ends one of the administrator's sessions; false when they have none by that name. */
  async end(editor: SignedInEditor, sessionId: string): Promise<boolean> {
    const sessions = await this.store.sessions.ofUser(editor.tenantId, editor.userId);
    const session = sessions.find((s) => sessionIdOf(s.tokenHash) === sessionId);
    return session !== undefined && (await this.store.sessions.remove(session.tokenHash));
  }

  /** Ends every session of the administrator, on every node; how many. */
  signOutEverywhere(editor: SignedInEditor): Promise<number> {
    return this.store.sessions.removeOfUser(editor.tenantId, editor.userId);
  }

  /**
   * Forgets sessions expired over a day ago, failures older than the window and addresses not
   * used to sign in for `knownClientMs` (hourly). An expired session is kept that long so that
   * the editor is told it expired, not that it is unknown.
   */
  async purge(): Promise<number> {
    const now = this.now();
    const day = 86_400_000;
    const sessions = await this.store.sessions.purgeExpired(
      now - this.policy.sessionIdleMs - day,
      now - this.policy.sessionMaxMs - day,
    );
    const failures = await this.store.signInFailures.purge(now - this.policy.failureWindowMs);
    const clients = await this.store.signInFailures.forgetClients(now - this.policy.knownClientMs);
    return sessions + failures + clients;
  }

  private expired(session: EditorSession, now: number): boolean {
    return (
      now - session.lastSeenAt > this.policy.sessionIdleMs ||
      now - session.createdAt > this.policy.sessionMaxMs
    );
  }

  /** The administrators the username names (of the tenant, when one is named). */
  private async adminsNamed(request: SignInRequest): Promise<Admin[]> {
    return (await this.store.users.withUsernameKey(usernameKey(request.username)))
      .filter((user) => user.role === EDITOR_ROLE)
      .filter((user) => request.tenantId === undefined || user.tenantId === request.tenantId);
  }

  /** The accounts the password opens, of those tried (a stand-in hash for a username of none). */
  private async opened(
    password: string,
    tried: readonly { account: string; user: Admin | null | undefined }[],
  ): Promise<Admin[]> {
    const results = await Promise.all(
      tried.map(async ({ user }) =>
        user
          ? verifyPassword(password, user.passwordHash)
          : verifyPassword(password, await this.decoy).then(() => false),
      ),
    );
    return tried.flatMap(({ user }, i) => (user && results[i] ? [user] : []));
  }
}
