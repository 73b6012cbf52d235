/**
 * The ask route, whichever entrance a request comes by (Fastify's route, or the fast lane in
 * front of it): authentication, the deferred body error, the body schema, `ask`, and the
 * failure mapping, in the contract's order.
 * @module
 */
import type { ValidateFunction } from 'ajv';
import type { Logger } from '../logger';
import type { AskRequest } from '../api-types';
import { askInConversation } from '../domain/conversation';
import { authenticate } from './authenticate';
import type { AuthDeps, SignedCall } from './authenticate';
import { assertBodyPresent, assertBodyWellFormed } from './body-parser';
import { success } from './envelope';
import { RequestValidationError, UNEXPECTED, failureOf } from './failures';
import type { Failure } from './failures';

export const ASK_ROUTE = '/v1/openapi/tenants/:tenantId/robots/:robotId/robot/ask';

export interface AskCall extends SignedCall {
  tenantId: string;
  robotId: string;
  /** The parsed body: undefined when empty. */
  body: unknown;
}

export interface AskHandlerDeps extends AuthDeps {
  /** The ask body's schema, compiled once. */
  validateBody: ValidateFunction;
  /** What the body must be, for the message of an empty one. */
  expectedBody: string;
  logger: Logger;
}

export type AskHandler = (call: AskCall) => Promise<Failure>;

export function createAskHandler(deps: AskHandlerDeps): AskHandler {
  return async (call) => {
    try {
      const robot = await authenticate(deps, 2, call);
      assertBodyWellFormed(call.body);
      assertBodyPresent(call.body, deps.expectedBody);
      const body = call.body;
      if (!deps.validateBody(body)) {
        throw new RequestValidationError(deps.validateBody.errors ?? [], 'body');
      }
      if (!robot) throw new Error('ask reached without a resolved robot');
      const { question, userId, channel } = body as AskRequest;
      // The openapi is answered from the robot's served edition (the published one in review mode).
      const asked = { question, userId, channel };
      const { result } = await askInConversation(deps.ctx, robot, asked, deps.ctx.now(), 'served');
      return { status: 200, body: success(result) };
    } catch (error) {
      const known = failureOf(error as Error, false);
      if (known) return known;
      deps.logger.error(`unexpected fault on POST ${call.uri}`, error);
      return { status: 500, body: UNEXPECTED };
    }
  };
}
