/**
 * A typed client of the openapi routes that signs every request (contract.md). Used by the tests,
 * the benchmarks, the `sign` CLI and the editor (Excel import), and usable by any application:
 * it runs in Node and in browsers alike (fetch, Web Crypto for nonces, js-md5 for the MD5 that
 * Web Crypto lacks).
 * @module
 */
import { md5 } from 'js-md5';
import type {
  AddUserRequest,
  AskRequest,
  AskResult,
  BatchImportResult,
  Envelope,
  FailureEnvelope,
  RegisterTenantRequest,
  RegisterTenantResult,
  RobotResult,
  RuleDetail,
  RuleInput,
  RuleList,
  UpdateUserRequest,
  UserResult,
} from '../service/api-types';
import { canonicalString } from '../service/auth/canonical';
import type { SignMethod } from '../service/auth/canonical';

export interface ClientConfig {
  baseUrl: string;
  customerId: string;
  adminKey: string;
  adminSecret: string;
  /** Clock used for timestamps (tests move it). */
  now?: () => number;
}

export interface SendOptions {
  signMethod: SignMethod;
  robotSecret?: string;
  body?: unknown;
  /** Extra query parameters, sent next to the signature's. */
  query?: Record<string, string | number>;
  /** Override signature parameters (tests of refusals). */
  auth?: Partial<Record<'adminkey' | 'customerId' | 'nonce' | 'timestamp' | 'sign', string>>;
  /** Cancels the request (the editor's import cancel button). */
  signal?: AbortSignal;
}

export interface ApiResponse<T = unknown> {
  status: number;
  body: Envelope<T> | FailureEnvelope;
}

export class KbApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`${code} (HTTP ${status}): ${message}`);
    this.name = 'KbApiError';
  }
}

const NONCE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/** The envelope's data, or a KbApiError carrying its code and sentence. */
export function unwrap<T>({ status, body }: ApiResponse<T>): T {
  if (body.code !== '0') throw new KbApiError(status, body.code, body.msg ?? '');
  return body.data as T;
}

/** 16 random characters of the nonce alphabet (96 bits). */
export function newNonce(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => NONCE_ALPHABET[byte & 63]).join('');
}

export class OpenApiClient {
  constructor(readonly config: ClientConfig) {}

  /** The full URL of a signed request: path plus the five signature parameters and `query`. */
  signedUrl(path: string, options: Omit<SendOptions, 'body'>): string {
    const timestamp = String((this.config.now ?? Date.now)());
    const nonce = newNonce();
    const base = {
      adminkey: this.config.adminKey,
      customerId: this.config.customerId,
      nonce,
      timestamp,
    };
    const sign = md5(
      canonicalString(options.signMethod, {
        ...base,
        adminsecret: this.config.adminSecret,
        uri: path,
        ...(options.signMethod === 2 ? { robotsecret: options.robotSecret ?? '' } : {}),
      }),
    );
    const params = new URLSearchParams({ ...base, sign, ...options.auth });
    for (const [key, value] of Object.entries(options.query ?? {})) params.set(key, String(value));
    return `${this.config.baseUrl}${path}?${params.toString()}`;
  }

  /** Sends one signed request and returns the status and the envelope, success or not. */
  async send<T = unknown>(
    method: string,
    path: string,
    options: SendOptions,
  ): Promise<ApiResponse<T>> {
    const init: RequestInit = { method, headers: { 'content-type': 'application/json' } };
    if (options.signal) init.signal = options.signal;
    if (options.body !== undefined) {
      init.body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    const response = await fetch(this.signedUrl(path, options), init);
    return {
      status: response.status,
      body: (await response.json()) as Envelope<T> | FailureEnvelope,
    };
  }

  private async call<T>(method: string, path: string, options: SendOptions): Promise<T> {
    return unwrap(await this.send<T>(method, path, options));
  }

  registerTenant(request: RegisterTenantRequest): Promise<RegisterTenantResult> {
    return this.call('POST', '/v1/openapi/register/init', { signMethod: 1, body: request });
  }

  addUser(tenantId: number, request: AddUserRequest): Promise<UserResult> {
    return this.call('POST', `/v1/openapi/tenants/${tenantId}/users`, {
      signMethod: 1,
      body: request,
    });
  }

  updateUser(tenantId: number, userId: string, request: UpdateUserRequest): Promise<UserResult> {
    return this.call('PUT', `/v1/openapi/tenants/${tenantId}/users/${encodeURIComponent(userId)}`, {
      signMethod: 1,
      body: request,
    });
  }

  async listRobots(tenantId: number): Promise<RobotResult[]> {
    const data = await this.call<{ list: RobotResult[] }>(
      'GET',
      `/v1/openapi/tenants/${tenantId}/robots`,
      {
        signMethod: 1,
      },
    );
    return data.list;
  }

  createRobot(tenantId: number, name: string): Promise<RobotResult> {
    return this.call('POST', `/v1/openapi/tenants/${tenantId}/robots`, {
      signMethod: 1,
      body: { name },
    });
  }

  /** A client for one robot's method-2 routes. */
  robot(tenantId: number, robotId: string, robotSecret: string): RobotClient {
    return new RobotClient(this, tenantId, robotId, robotSecret);
  }
}

export class RobotClient {
  readonly basePath: string;

  constructor(
    readonly client: OpenApiClient,
    readonly tenantId: number,
    readonly robotId: string,
    readonly robotSecret: string,
  ) {
    this.basePath = `/v1/openapi/tenants/${tenantId}/robots/${encodeURIComponent(robotId)}`;
  }

  send<T = unknown>(
    method: string,
    subPath: string,
    options: Omit<SendOptions, 'signMethod'> = {},
  ) {
    return this.client.send<T>(method, `${this.basePath}${subPath}`, {
      signMethod: 2,
      robotSecret: this.robotSecret,
      ...options,
    });
  }

  private async call<T>(
    method: string,
    subPath: string,
    options: Omit<SendOptions, 'signMethod'> = {},
  ) {
    return unwrap(await this.send<T>(method, subPath, options));
  }

  importRules(rules: readonly RuleInput[], signal?: AbortSignal): Promise<BatchImportResult> {
    return this.call('POST', '/kb/rules/full/batch', {
      body: rules,
      ...(signal ? { signal } : {}),
    });
  }

  getRule(ruleId: string): Promise<RuleDetail> {
    return this.call('GET', `/kb/rules/${encodeURIComponent(ruleId)}`);
  }

  listRules(page = 0, pageSize = 20): Promise<RuleList> {
    return this.call('GET', '/kb/rules', { query: { page, pageSize } });
  }

  ask(question: string, userId = 'kb-studio-client'): Promise<AskResult> {
    const body: AskRequest = { userId, question, channel: 'API', questionType: 'TEXT' };
    return this.call('POST', '/robot/ask', { body });
  }
}
