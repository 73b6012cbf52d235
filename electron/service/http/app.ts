/**
 * The HTTP face of the service: Fastify with the contract's envelope, body limit, signature
 * middleware and error mapping. `app.inject()` runs a request in-process; `listen()` serves it.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify from 'fastify';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaCompiler,
  preValidationHookHandler,
} from 'fastify';
import type { FastifySchemaControllerOptions } from 'fastify/types/schema';
import type { AnySchema } from 'ajv';
import type { EditorToken } from '../auth/editor-token';
import type { VerifierDeps } from '../auth/verify';
import type { SignMethod } from '../auth/signature';
import type { DomainContext } from '../domain/context';
import type { PublishingRoom } from '../publishing/publishing-room';
import type { SemanticSearch } from '../embedding/semantic-search';
import type { Robot } from '../domain/robot-directory';
import { LIMITS } from '../limits';
import { createAjv, expectedBody } from '../validation/ajv';
import { AskBody } from '../validation/schemas';
import { askFastLane } from './ask-fast-lane';
import { ASK_ROUTE, createAskHandler } from './ask-handler';
import { authenticate } from './authenticate';
import { assertBodyPresent, assertBodyWellFormed, registerBodyParsers } from './body-parser';
import { launchTokenGate, signedInGate } from './console-gate';
import type { ConsoleIdentity } from './console-gate';
import type { EditorSessions } from '../sign-in/editor-sessions';
import { RetryLaterError } from '../sign-in/sign-in-errors';
import { closeQuietConnections, connectionStats, createLimitedServer } from './connection-limits';
import type { ConnectionLimits } from './connection-limits';
import { corsPolicy, isOpenApiPath } from './cors';
import type { CorsOrigins } from './cors';
import { failure } from './envelope';
import { UNEXPECTED, failureOf } from './failures';
import {
  clientErrorHandler,
  drainRefusedBody,
  frameworkErrorHandler,
  logRefusal,
} from './framework-errors';
import { countedAsks, registerOperations } from './health';
import type { OperationsDeps } from './health';
import { registerHostAllowList } from './host-allow-list';
import { lazyValidator } from './lazy-validator';
import { parseQueryString } from './query-string';
import { registerCategoryRoutes } from './routes/console/category-routes';
import type { QuestionLog } from '../question-log/question-log';
import { registerQuestionLogRoutes } from './routes/console/question-log-routes';
import { registerEmbeddingRoutes } from './routes/console/embedding-routes';
import { registerRobotBundleRoutes } from './routes/console/robot-bundle-routes';
import { registerEditorTokenRoute } from './routes/console/editor-token-route';
import { registerConsoleRuleRoutes } from './routes/console/rule-routes';
import { registerSignInRoutes } from './routes/console/sign-in-routes';
import { registerSimilarRoute } from './routes/console/similar-route';
import { registerSmallTalkRoute } from './routes/console/small-talk-route';
import { registerPublishingRoutes } from './routes/console/publishing-routes';
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
    /**
     * A console route (the editor's API): needs the per-launch token, or on a team server a
     * signed-in administrator's session (http/console-gate.ts).
     */
    console?: boolean;
    /**
     * On a team server, a console route without a tenant in its path: `own-tenant` when its
     * handler keeps to `request.editor.tenantId`, `any` when it shows nothing of a tenant.
     */
    teamScope?: 'own-tenant' | 'any';
  }
  interface FastifyRequest {
    /** The robot named in the path of a method-2 route, resolved during authentication. */
    robot: Robot | null;
    /** Who calls a console route, once admitted. */
    editor: ConsoleIdentity | null;
  }
}

export interface HttpDeps {
  ctx: DomainContext;
  verifier: VerifierDeps;
  /** The editor's token of the console API (when editors do not sign in). */
  editorToken: EditorToken;
  /** Editors sign in (a team server): the console API takes their sessions, not the token. */
  signIn?: EditorSessions | null;
  /** The service's own address, known once it listens. */
  baseUrl: () => string;
  /** Folder of the built editor, served at `/`; null when there is none. */
  editorDir: string | null;
  /** Origins whose pages may call the openapi routes (CORS); `*` by default. */
  corsOrigins?: CorsOrigins;
  /** Request deadlines and the connection cap (http/connection-limits.ts). */
  connectionLimits: ConnectionLimits;
  /** The address the service listens on: the editor answers to it (http/host-allow-list.ts). */
  listenHost: string;
  /** Further host names the editor answers to (ServiceOptions.publicHosts). */
  publicHosts?: readonly string[];
  /** Addresses of the proxies whose X-Forwarded-For is believed (ServiceOptions.trustProxy). */
  trustProxy?: readonly string[];
  /** The question log, when it is on (its console routes). */
  questionLog?: QuestionLog | null;
  /** Versions and test sets (publishing/); their routes are left out without it. */
  publishing?: PublishingRoom;
  /** Health, readiness and metrics (http/health.ts). */
  operations: OperationsDeps;
  /** The robots' embedding models (embedding/); their routes are left out without it. */
  semantic?: SemanticSearch;
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
  const cors = corsPolicy(deps.corsOrigins ?? '*');
  /** CORS headers on an answer of the openapi routes (never on the console's). */
  const addCors = (request: FastifyRequest, reply: FastifyReply): void => {
    if (isOpenApiPath(request.url)) void reply.headers(cors.answerHeaders(request.headers.origin));
  };
  const logger = deps.ctx.logger;
  // Plain ask requests are answered before Fastify's pipeline (http/ask-fast-lane.ts); the
  // server is made here as Fastify would make it, with that front.
  let lane: ((req: IncomingMessage, res: ServerResponse) => boolean) | null = null;
  const app = Fastify({
    serverFactory: (handler) =>
      createLimitedServer(
        deps.connectionLimits,
        (req, res) => {
          if (!lane?.(req, res)) handler(req, res);
        },
        deps.trustProxy,
      ),
    logger: false,
    // What the framework refuses before a route runs leaves in the envelope too.
    frameworkErrors: frameworkErrorHandler(logger, addCors),
    clientErrorHandler: clientErrorHandler(logger),
    bodyLimit: LIMITS.bodyBytesMax,
    // Behind a load balancer, the client's address (failed sign-ins are counted per address)
    // comes from X-Forwarded-For, believed only from these proxies.
    ...(deps.trustProxy !== undefined && deps.trustProxy.length > 0
      ? { trustProxy: [...deps.trustProxy] }
      : {}),
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
  registerBodyParsers(app, LIMITS.bodyBytesMax);
  app.addHook('preClose', (done) => {
    closeQuietConnections(app.server);
    done();
  });
  app.decorateRequest('robot', null);
  app.decorateRequest('editor', null);
  const gate = deps.signIn
    ? signedInGate(deps.signIn)
    : launchTokenGate(() => deps.editorToken.current);

  // Authentication runs in the preValidation hook of each signed or console route, so the
  // contract's order holds (route, body size, 401, 404 robot, signature, then 400). It is
  // attached per route, not as a global hook that every request would enter to find out whether
  // it applies. (The ask route authenticates in its own handler: ask-handler.ts.) A route with
  // a body schema refuses an empty body, saying what it needs (`expected`).
  const checkBody = (body: unknown, expected: string | null) => {
    assertBodyWellFormed(body);
    if (expected !== null) assertBodyPresent(body, expected);
  };
  const consoleAuth =
    (expected: string | null): preValidationHookHandler =>
    async (request) => {
      request.editor = await gate(request);
      checkBody(request.body, expected);
    };
  const signedAuth =
    (method: SignMethod, expected: string | null): preValidationHookHandler =>
    async (request) => {
      const params = request.params as { tenantId?: string; robotId?: string };
      request.robot = await authenticate(deps, method, {
        query: request.query as Record<string, unknown>,
        uri: wireUri(request),
        ...params,
      });
      checkBody(request.body, expected);
    };
  const withCors = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    addCors(request, reply);
    done();
  };
  app.addHook('onRoute', (route) => {
    const body = route.schema?.body;
    const expected = body === undefined ? null : expectedBody(body);
    const auth = route.config?.console
      ? consoleAuth(expected)
      : route.config?.signMethod !== undefined
        ? signedAuth(route.config.signMethod, expected)
        : undefined;
    if (route.config?.signMethod !== undefined || route.path === ASK_ROUTE) {
      const own = route.onRequest;
      route.onRequest =
        own === undefined ? [withCors] : [withCors, ...(Array.isArray(own) ? own : [own])];
    }
    if (!auth) return;
    const own = route.preValidation;
    route.preValidation =
      own === undefined ? [auth] : [auth, ...(Array.isArray(own) ? own : [own])];
  });

  // CORS preflights of the openapi routes (the console API has none: it stays same-origin).
  app.options('/v1/openapi/*', (request, reply) => {
    const requested = request.headers['access-control-request-headers'];
    void reply
      .status(204)
      .headers(
        cors.preflightHeaders(
          request.headers.origin,
          typeof requested === 'string' ? requested : undefined,
        ),
      )
      .send();
  });

  registerHostAllowList(app, deps.listenHost, deps.publicHosts);

  app.setNotFoundHandler((request, reply) => {
    addCors(request, reply);
    void reply
      .status(404)
      .send(failure('route-not-found', `There is no route ${request.method} ${wireUri(request)}.`));
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = failureOf(error, request.routeOptions.config.console === true);
    if (error instanceof RetryLaterError) void reply.header('Retry-After', error.retryAfterSeconds);
    if (known?.refused) logRefusal(logger, request.method, wireUri(request), known);
    if (known?.status === 413) drainRefusedBody(request, reply);
    if (known) return reply.status(known.status).send(known.body);
    logger.error(`unexpected fault on ${request.method} ${wireUri(request)}`, error);
    return reply.status(500).send(UNEXPECTED);
  });

  const metrics = await registerOperations(app, deps.operations, () => connectionStats(app.server));
  const handleAsk = countedAsks(
    createAskHandler({
      ctx: deps.ctx,
      verifier: deps.verifier,
      validateBody: lazyValidator(ajv, AskBody),
      expectedBody: expectedBody(AskBody),
      logger,
    }),
    metrics,
  );
  lane = askFastLane(handleAsk, cors);
  app.post(ASK_ROUTE, { config: { formBody: true } }, async (request, reply) => {
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
  registerSignInRoutes(
    app,
    deps.ctx.store,
    deps.signIn ?? null,
    metrics ? (outcome) => metrics.countSignIn(outcome) : undefined,
  );
  if (!deps.signIn) registerEditorTokenRoute(app, deps.editorToken);
  registerWorkspaceRoutes(app, deps.ctx, deps.verifier.credentials, deps.baseUrl);
  const questionLog = deps.questionLog;
  registerConsoleRuleRoutes(
    app,
    deps.ctx,
    questionLog ? async (robot, ruleIds) => questionLog.ruleHits(robot, ruleIds) : undefined,
  );
  registerCategoryRoutes(app, deps.ctx);
  registerRobotBundleRoutes(app, deps.ctx);
  registerTrashRoutes(app, deps.ctx);
  if (deps.questionLog) registerQuestionLogRoutes(app, deps.ctx, deps.questionLog);
  registerTryRoute(app, deps.ctx);
  registerSimilarRoute(app, deps.ctx);
  registerSmallTalkRoute(app);
  if (deps.publishing) registerPublishingRoutes(app, deps.publishing);
  if (deps.semantic) registerEmbeddingRoutes(app, deps.ctx, deps.semantic);
  await registerEditorRoutes(app, deps.editorDir);
  return app;
}
