/**
 * Copies a robot from one KB Studio service to another over their console APIs (the desktop's
 * embedded service and a team server, either way): the source's bundle is fetched and imported
 * as a new robot of a tenant of the target (docs/api.md, "Copying a robot"). Runs in Node and in
 * the desktop's main process (fetch only); each side is authorised by the token it gave: the
 * per-launch console token, or a session token from signing in to a team server (`signIn`).
 * @module
 */
import type { ConsoleWorkspace, SignInRequest, SignInResult } from '../service/console-types';
import type { RobotBundle, RobotImportResult } from '../service/robot-bundle-types';

export type { SignInRequest, SignInResult };

/** A service's console API and the bearer token that opens it. */
export interface ConsoleEndpoint {
  /** `http://127.0.0.1:8787`, `https://kb.example.com` (no trailing path). */
  baseUrl: string;
  token: string;
}

export interface RobotCopyRequest {
  from: ConsoleEndpoint & { tenantId: number; robotId: string };
  to: ConsoleEndpoint & { tenantId: number };
}

export interface RobotCopyReport extends RobotImportResult {
  /** What the source left out: menu entries and test cases leading to rules in its trash. */
  omitted: { menuEntries: number; testCases: number };
}

/** A service's refusal, or an answer that is not a KB Studio service's. */
export class ConsoleCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConsoleCallError';
  }
}

interface Envelope<T> {
  code: string;
  msg: string | null;
  data: T;
}

async function call<T>(
  endpoint: Pick<ConsoleEndpoint, 'baseUrl'> & { token?: string },
  method: 'GET' | 'POST',
  path: string,
  body?: string,
): Promise<T> {
  const url = `${endpoint.baseUrl.replace(/\/+$/, '')}/console/api${path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        ...(endpoint.token ? { Authorization: `Bearer ${endpoint.token}` } : {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body,
    });
  } catch (error) {
    const reason = (error as { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new ConsoleCallError(
      0,
      'unreachable',
      `${endpoint.baseUrl} cannot be reached (${reason}).`,
    );
  }
  let envelope: Envelope<T>;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    throw new ConsoleCallError(
      response.status,
      'not-kb-studio',
      `${endpoint.baseUrl} answered ${method} ${path} with HTTP ${response.status} and no KB Studio envelope: is it a KB Studio service?`,
    );
  }
  if (envelope.code !== '0') {
    throw new ConsoleCallError(
      response.status,
      envelope.code,
      `${endpoint.baseUrl}: ${envelope.msg ?? envelope.code}`,
    );
  }
  return envelope.data;
}

/** Signs in to a team server's editor: the token it gives opens its console API. */
export function signIn(baseUrl: string, request: SignInRequest): Promise<SignInResult> {
  return call<SignInResult>({ baseUrl }, 'POST', '/sign-in', JSON.stringify(request));
}

/** The tenants and robots the token may see (a team server shows the signed-in tenant's). */
export function workspaceOf(endpoint: ConsoleEndpoint): Promise<ConsoleWorkspace> {
  return call<ConsoleWorkspace>(endpoint, 'GET', '/workspace');
}

/** A robot's bundle. */
export function exportRobotBundle(
  endpoint: ConsoleEndpoint,
  tenantId: number,
  robotId: string,
): Promise<RobotBundle> {
  return call<RobotBundle>(
    endpoint,
    'GET',
    `/tenants/${tenantId}/robots/${encodeURIComponent(robotId)}/bundle`,
  );
}

/** Imports a bundle as a new robot of the tenant. */
export function importRobotBundle(
  endpoint: ConsoleEndpoint,
  tenantId: number,
  bundle: RobotBundle,
): Promise<RobotImportResult> {
  return call<RobotImportResult>(
    endpoint,
    'POST',
    `/tenants/${tenantId}/robots/import`,
    JSON.stringify(bundle),
  );
}

/** Copies the robot `from` names into a new robot of the tenant `to` names; says what it made. */
export async function copyRobot(request: RobotCopyRequest): Promise<RobotCopyReport> {
  const { from, to } = request;
  const bundle = await exportRobotBundle(from, from.tenantId, from.robotId);
  const imported = await importRobotBundle(to, to.tenantId, bundle);
  return { ...imported, omitted: bundle.omitted ?? { menuEntries: 0, testCases: 0 } };
}
