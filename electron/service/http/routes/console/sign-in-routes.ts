/**
 * Signing in to a team server's editor (sign-in/): whether the editor signs in, sign-in and
 * sign-out, and the signed-in administrator's sessions (listed, one ended, all ended). Without
 * sign-in (the desktop app, plain `npm run serve`) only the first is there.
 * @module
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConsoleSession, SignInMode, SignInResult } from '../../../console-types';
import { ServiceError } from '../../../errors';
import type { KbStore } from '../../../store/contract/store';
import type { EditorSessions, SignedInEditor } from '../../../sign-in/editor-sessions';
import { notSignedIn } from '../../../sign-in/sign-in-errors';
import { SignInBody } from '../../../validation/console-schemas';
import { assertBodyPresent, assertBodyWellFormed } from '../../body-parser';
import { expectedBody } from '../../../validation/ajv';
import { success } from '../../envelope';
import { CONSOLE } from './workspace-routes';

const MINUTE = 60_000;

/** What a sign-in came to, for whoever counts them (http/metrics.ts). */
export type SignInCount = 'signed-in' | 'choose-tenant' | 'failed' | 'refused';

const SessionPath = Type.Object({ sessionId: Type.String({ minLength: 1, maxLength: 64 }) });

async function companiesOf(store: KbStore): Promise<Map<number, string>> {
  return new Map((await store.tenants.all()).map((tenant) => [tenant.tenantId, tenant.company]));
}

/** The administrator a console request was admitted as (team server routes only). */
function signedInOf(request: FastifyRequest): SignedInEditor {
  const editor = request.editor?.signedIn;
  if (!editor) throw notSignedIn();
  return editor;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function registerSignInRoutes(
  app: FastifyInstance,
  store: KbStore,
  sessions: EditorSessions | null,
  count: (outcome: SignInCount) => void = () => undefined,
): void {
  // Asked by the editor before anything else, so it needs no token.
  app.get(`${CONSOLE}/sign-in`, { config: { editor: true } }, async () => {
    const mode: SignInMode = sessions
      ? {
          signIn: true,
          sessionIdleMinutes: sessions.policy.sessionIdleMs / MINUTE,
          sessionMaxMinutes: sessions.policy.sessionMaxMs / MINUTE,
        }
      : { signIn: false };
    return success(mode);
  });
  if (!sessions) return;

  const expected = expectedBody(SignInBody);
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  typed.post(
    `${CONSOLE}/sign-in`,
    {
      config: { editor: true },
      schema: { body: SignInBody },
      preValidation: (request, _reply, done) => {
        try {
          assertBodyWellFormed(request.body);
          assertBodyPresent(request.body, expected);
        } catch (error) {
          done(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        done();
      },
    },
    async (request) => {
      const userAgent = request.headers['user-agent'] ?? '';
      const outcome = await sessions
        .signIn(request.body, { address: request.ip, userAgent })
        .catch((error: unknown) => {
          const code = error instanceof ServiceError ? error.code : '';
          if (code === 'sign-in-failed') count('failed');
          if (code === 'too-many-sign-ins') count('refused');
          throw error;
        });
      count(outcome.status);
      const companies = await companiesOf(store);
      const result: SignInResult =
        outcome.status === 'signed-in'
          ? {
              status: 'signed-in',
              token: outcome.token,
              username: outcome.username,
              tenantId: outcome.tenantId,
              company: companies.get(outcome.tenantId) ?? '',
              expiresAt: iso(outcome.expiresAt),
            }
          : {
              status: 'choose-tenant',
              tenants: outcome.tenantIds.map((tenantId) => ({
                tenantId,
                company: companies.get(tenantId) ?? '',
              })),
            };
      return success(result);
    },
  );

  app.post(
    `${CONSOLE}/sign-out`,
    { config: { console: true, teamScope: 'any' } },
    async (request) => {
      await sessions.signOut(request.editor?.sessionToken ?? '');
      return success({ signedOut: true });
    },
  );

  // The administrator's own sessions: nothing of another administrator's, even of their tenant.
  typed.get(
    `${CONSOLE}/sessions`,
    { config: { console: true, teamScope: 'own-tenant' } },
    async (request) => {
      const listed = await sessions.list(signedInOf(request), request.editor?.sessionToken ?? '');
      const views: ConsoleSession[] = listed.map((session) => ({
        ...session,
        signedInAt: iso(session.signedInAt),
        lastSeenAt: iso(session.lastSeenAt),
        expiresAt: iso(session.expiresAt),
      }));
      return success({ sessions: views });
    },
  );

  typed.delete(
    `${CONSOLE}/sessions/:sessionId`,
    { config: { console: true, teamScope: 'own-tenant' }, schema: { params: SessionPath } },
    async (request) => {
      if (!(await sessions.end(signedInOf(request), request.params.sessionId))) {
        throw new ServiceError(
          'session-not-found',
          `You have no open session ${request.params.sessionId}.`,
        );
      }
      return success({ signedOut: 1 });
    },
  );

  typed.post(
    `${CONSOLE}/sign-out-everywhere`,
    { config: { console: true, teamScope: 'own-tenant' } },
    async (request) =>
      success({ signedOut: await sessions.signOutEverywhere(signedInOf(request)) }),
  );
}
