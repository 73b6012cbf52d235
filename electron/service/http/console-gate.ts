/**
 * Who may use the console API, and as whom. The desktop editor (and plain `npm run serve`) holds
 * the per-launch token and sees every tenant; on a team server a signed-in administrator sees
 * and changes only their own tenant: a route naming another tenant is 403 `other-tenant`, and a
 * route without a tenant in its path is refused (403 `customer-only`) unless it declares how it
 * keeps to the editor's tenant (`teamScope`).
 * @module
 */
import type { FastifyRequest } from 'fastify';
import { verifyConsoleToken } from '../auth/verify';
import { API_ACTOR, EDITOR_ACTOR } from '../domain/actors';
import type { EditorSessions, SignedInEditor } from '../sign-in/editor-sessions';
import { customerOnly, otherTenant } from '../sign-in/sign-in-errors';
import { parseTenantId } from './path-params';

export interface ConsoleIdentity {
  /** Who the changes are recorded as made by. */
  actor: string;
  /** The only tenant the editor may see; null: every tenant (the desktop editor). */
  tenantId: number | null;
  /** The session's token, on a team server (signing out). */
  sessionToken?: string;
  /** The signed-in administrator, on a team server (their sessions). */
  signedIn?: SignedInEditor;
}

export type ConsoleGate = (request: FastifyRequest) => Promise<ConsoleIdentity>;

/** Who a request's changes are made by: the admitted editor, else the openapi's `api`. */
export function actorOf(request: FastifyRequest): string {
  return request.editor?.actor ?? API_ACTOR;
}

export function bearerToken(header: string | undefined): string {
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
}

/** The editor's token: `token()` is the one in force (it may be replaced while running). */
export function launchTokenGate(token: () => string): ConsoleGate {
  return async (request) => {
    verifyConsoleToken(token(), request.headers.authorization);
    return { actor: EDITOR_ACTOR, tenantId: null };
  };
}

export function signedInGate(sessions: EditorSessions): ConsoleGate {
  return async (request) => {
    const sessionToken = bearerToken(request.headers.authorization);
    const editor = await sessions.admit(sessionToken);
    const asked = (request.params as { tenantId?: string } | undefined)?.tenantId;
    if (asked !== undefined) {
      const tenantId = parseTenantId(asked);
      if (tenantId !== editor.tenantId) throw otherTenant(editor.tenantId, tenantId);
    } else if (request.routeOptions.config.teamScope === undefined) {
      throw customerOnly();
    }
    return { actor: editor.username, tenantId: editor.tenantId, sessionToken, signedIn: editor };
  };
}
