/**
 * `POST /console/api/editor-token`: replaces the editor's token (auth/editor-token.ts) and
 * answers the new one, which the calling editor keeps; every other tab, bookmark and copied
 * address stops working. Only where editors do not sign in (a team server has no such token).
 * @module
 */
import type { FastifyInstance } from 'fastify';
import type { EditorToken } from '../../../auth/editor-token';
import type { EditorTokenResult } from '../../../console-types';
import { success } from '../../envelope';
import { CONSOLE } from './workspace-routes';

export function registerEditorTokenRoute(app: FastifyInstance, token: EditorToken): void {
  app.post(`${CONSOLE}/editor-token`, { config: { console: true } }, async () => {
    const result: EditorTokenResult = { token: await token.rotate() };
    return success(result);
  });
}
