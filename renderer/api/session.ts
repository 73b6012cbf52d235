/**
 * Signing in to a team server (docs/editor.md, "Signing in"): whether the service signs editors
 * in, the sign-in call, and the session kept in sessionStorage (this tab only, gone when it
 * closes), whose token goes where the per-launch token goes.
 * @module
 */
import type { SignInMode, SignInRequest, SignInResult } from '../../electron/service/console-types';
import { ApiError, readEnvelope } from './api-error';

const KEY = 'kb-studio.session';

export interface EditorSession {
  token: string;
  username: string;
  tenantId: number;
  company: string;
}

export async function fetchSignInMode(): Promise<SignInMode> {
  try {
    return await readEnvelope<SignInMode>(await fetch('/console/api/sign-in'));
  } catch (error) {
    // An editor served by an older service, or opened from a file: the token screen.
    if (error instanceof ApiError) return { signIn: false };
    throw error;
  }
}

export async function signIn(request: SignInRequest): Promise<SignInResult> {
  let response: Response;
  try {
    response = await fetch('/console/api/sign-in', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
    });
  } catch (error) {
    throw new ApiError(0, 'network-error', error instanceof Error ? error.message : 'offline');
  }
  const result = await readEnvelope<SignInResult>(response).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === 'too-many-sign-ins') {
      const wait = Number(response.headers.get('Retry-After'));
      throw new ApiError(error.status, error.code, String(Number.isFinite(wait) ? wait : 60));
    }
    throw error;
  });
  if (result.status === 'signed-in') {
    const { token, username, tenantId, company } = result;
    sessionStorage.setItem(KEY, JSON.stringify({ token, username, tenantId, company }));
  }
  return result;
}

/** Ends the session on the service (best effort: the tab forgets it anyway). */
export async function signOut(session: EditorSession): Promise<void> {
  forgetSession();
  await fetch('/console/api/sign-out', {
    method: 'POST',
    headers: { Authorization: `Bearer ${session.token}` },
    // An unreachable service must not keep the editor open: the tab has forgotten the token.
    signal: AbortSignal.timeout(5_000),
  }).catch(() => undefined);
}

export function storedSession(): EditorSession | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as EditorSession | null;
    return value && typeof value.token === 'string' ? value : null;
  } catch {
    return null;
  }
}

export function forgetSession(): void {
  sessionStorage.removeItem(KEY);
}
