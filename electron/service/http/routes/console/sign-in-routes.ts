/**
 * Signing in to a team server's editor (sign-in/): whether the editor signs in, sign-in and
 * sign-out. Without sign-in (the desktop app, plain `npm run serve`) only the first is there.
 * @module
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { SignInMode, SignInResult } from '../../../console-types';
import type { KbStore } from '../../../store/contract/store';
import type { EditorSessions } from '../../../sign-in/editor-sessions';
import { SignInBody } from '../../../validation/console-schemas';
import { assertBodyPresent, assertBodyWellFormed } from '../../body-parser';
import { expectedBody } from '../../../validation/ajv';
import { success } from '../../envelope';
import { CONSOLE } from './workspace-routes';

const MINUTE = 60_000;

async function companiesOf(store: KbStore): Promise<Map<number, string>> {
  return new Map((await store.tenants.all()).map((tenant) => [tenant.tenantId, tenant.company]));
}

export function registerSignInRoutes(
  app: FastifyInstance,
  store: KbStore,
  sessions: EditorSessions | null,
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
  app.withTypeProvider<TypeBoxTypeProvider>().post(
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
      const outcome = await sessions.signIn(request.body, request.ip);
      const companies = await companiesOf(store);
      const result: SignInResult =
        outcome.status === 'signed-in'
          ? {
              status: 'signed-in',
              token: outcome.token,
              username: outcome.username,
              tenantId: outcome.tenantId,
              company: companies.get(outcome.tenantId) ?? '',
              expiresAt: new Date(outcome.expiresAt).toISOString(),
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
}
