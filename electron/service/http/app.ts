/**
 * The HTTP face of the service: Fastify with the contract's envelope, body limit, signature
 * middleware and error mapping. `app.inject()` runs a request in-process; `listen()` serves it.
 * @module
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import Fastify from 'fastify';
import type {
  FastifyError,
  FastifyInstance,
  FastifyRequest,
  FastifySchemaCompiler,
  preValidationHookHandler,
} from 'fastify';
import type { FastifySchemaControllerOptions } from 'fastify/types/schema';
import type { AnySchema } from 'ajv';
import { verifyConsoleToken } from '../auth/verify';
import type { VerifierDeps } from '../auth/verify';
import type { SignMethod } from '../auth/signature';
import type { DomainContext } from '../domain/context';
import type { Robot } from '../domain/robot-directory';
import { LIMITS } from '../limits';
import { createAjv } from '../validation/ajv';
import { AskBody } from '../validation/schemas';
import { askFastLane } from './ask-fast-lane';
import { ASK_ROUTE, createAskHandler } from './ask-handler';
import { authenticate } from './authenticate';
import { assertBodyWellFormed, registerJsonBodyParser } from './body-parser';
import { failure } from './envelope';
import { UNEXPECTED, failureOf } from './failures';
import { lazyValidator } from './lazy-validator';
import { parseQueryString } from './query-string';
import { registerCategoryRoutes } from './routes/console/category-routes';
import { registerConsoleRuleRoutes } from './routes/console/rule-routes';
import { registerTrashRoutes } from './routes/console/trash-routes';
import { registerTryRoute } from './routes/console/try-route';
import { registerWorkspaceRoutes } from './routes/console/workspace-routes';
import { registerEditorRoutes } from './routes/editor';
import { registerRobotRoutes } from './routes/robots';
import { registerRuleRoutes } from './routes/rules';
import { registerTenantRoutes } from './routes/tenants';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Signature method of an openapi route (contract.md); absent on unsigned routes. */
    signMethod?: SignMethod;
    /** A console route (the editor's API): needs the per-launch token. */
    console?: boolean;
  }
  interface FastifyRequest {
    /** The robot named in the path of a method-2 route, resolved during authentication. */
    robot: Robot | null;
  }
}

export interface HttpDeps {
  ctx: DomainContext;
  verifier: VerifierDeps;
  /** The per-launch token of the console API. */
  consoleToken: string;
  /** The service's own address, known once it listens. */
  baseUrl: () => string;
  /** Folder of the built editor, served at `/`; null when there is none. */
  editorDir: string | null;
}

/** The path as it appears on the wire, before `?`: what the client signed. */
function wireUri(request: FastifyRequest): string {
  const raw = request.raw.url ?? request.url;
  const q = raw.indexOf('?');
  return q < 0 ? raw : raw.slice(0, q);
}

type Factories = NonNullable<FastifySchemaControllerOptions['compilersFactory']>;

export async function buildHttpApp(deps: HttpDeps): Promise<FastifyInstance> {
  const ajv = createAjv();
  const validatorCompiler: FastifySchemaCompiler<AnySchema> = ({ schema }) =>
    lazyValidator(ajv, schema);
  // Plain ask requests are answered before Fastify's pipeline (http/ask-fast-lane.ts); the
  // server is made here as Fastify would make it, with that front.
  let lane: ((req: IncomingMessage, res: ServerResponse) => boolean) | null = null;
  const app = Fastify({
    serverFactory: (handler, opts: Record<string, unknown>) => {
      const server = createServer((opts.http as ServerOptions | undefined) ?? {}, (req, res) => {
        if (!lane?.(req, res)) handler(req, res);
      });
      server.keepAliveTimeout = opts.keepAliveTimeout as number;
      server.requestTimeout = opts.requestTimeout as number;
      server.setTimeout(opts.connectionTimeout as number);
      if ((opts.maxRequestsPerSocket as number) > 0)
        server.maxRequestsPerSocket = opts.maxRequestsPerSocket as number;
      return server;
    },
    logger: false,
    bodyLimit: LIMITS.bodyBytesMax,
    routerOptions: { querystringParser: parseQueryString },
    return503OnClosing: false,
    // Our own compilers, given up front: Fastify otherwise loads its default ones (a second Ajv
    // and fast-json-stringify, 80 ms of a start) only to have them replaced. No route has a
    // response schema: replies are serialised with JSON.stringify, as Fastify does without one.
    schemaController: {
      compilersFactory: {
        buildValidator: (() => validatorCompiler) as unknown as Factories['buildValidator'],
        buildSerializer: (() => () => (data: unknown) =>
          JSON.stringify(data)) as unknown as Factories['buildSerializer'],
      },
    },
  });
  registerJsonBodyParser(app, LIMITS.bodyBytesMax);
  app.decorateRequest('robot', null);

  // Authentication runs in the preValidation hook of each signed or console route, so the
  // contract's order holds (route, body size, 401, 404 robot, signature, then 400). It is
  // attached per route, not as a global hook that every request would enter to find out whether
  // it applies. (The ask route authenticates in its own handler: ask-handler.ts.)
  const consoleAuth: preValidationHookHandler = (request, _reply, done) => {
    try {
      verifyConsoleToken(deps.consoleToken, request.headers.authorization);
      assertBodyWellFormed(request.body);
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  };
  const signedAuth =
    (method: SignMethod): preValidationHookHandler =>
    async (request) => {
      const params = request.params as { tenantId?: string; robotId?: string };
      request.robot = await authenticate(deps, method, {
        query: request.query as Record<string, unknown>,
        uri: wireUri(request),
        ...params,
      });
      assertBodyWellFormed(request.body);
    };
  app.addHook('onRoute', (route) => {
    const auth = route.config?.console
      ? consoleAuth
      : route.config?.signMethod !== undefined
        ? signedAuth(route.config.signMethod)
        : undefined;
    if (!auth) return;
    const own = route.preValidation;
    route.preValidation =
      own === undefined ? [auth] : [auth, ...(Array.isArray(own) ? own : [own])];
  });

  app.setNotFoundHandler((request, reply) => {
    void reply
      .status(404)
      .send(failure('route-not-found', `There is no route ${request.method} ${wireUri(request)}.`));
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = failureOf(error, request.routeOptions.config.console === true);
    if (known) return reply.status(known.status).send(known.body);
    deps.ctx.logger.error(`unexpected fault on ${request.method} ${wireUri(request)}`, error);
    return reply.status(500).send(UNEXPECTED);
  });

  const handleAsk = createAskHandler({
    ctx: deps.ctx,
    verifier: deps.verifier,
    validateBody: lazyValidator(ajv, AskBody),
    logger: deps.ctx.logger,
  });
  lane = askFastLane(handleAsk);
  app.post(ASK_ROUTE, async (request, reply) => {
    const { tenantId, robotId } = request.params as { tenantId: string; robotId: string };
    const answer = await handleAsk({
      tenantId,
      robotId,
      query: request.query as Record<string, unknown>,
      uri: wireUri(request),
      body: request.body,
    });
    return reply.status(answer.status).send(answer.body);
  });

  registerTenantRoutes(app, deps.ctx);
  registerRobotRoutes(app, deps.ctx);
  registerRuleRoutes(app, deps.ctx, ajv);
  registerWorkspaceRoutes(app, deps.ctx, deps.verifier.credentials, deps.baseUrl);
  registerConsoleRuleRoutes(app, deps.ctx);
  registerCategoryRoutes(app, deps.ctx);
  registerTrashRoutes(app, deps.ctx);
  registerTryRoute(app, deps.ctx);
  await registerEditorRoutes(app, deps.editorDir);
  return app;
}
