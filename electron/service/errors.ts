/**
 * The one error type of the service. The HTTP layer maps it to the failure envelope of the
 * contract; anything else that is thrown becomes a logged 500 with no detail in the response.
 * @module
 */

/** Stable, documented error codes (kebab-case), one per reason. See docs/api.md. */
export const ERROR_CODES = {
  'malformed-json': 400,
  'malformed-request': 400,
  'malformed-url': 400,
  'missing-field': 400,
  'invalid-field': 400,
  'batch-too-large': 400,
  'invalid-paging': 400,
  'missing-auth-param': 401,
  'malformed-auth-param': 401,
  'unknown-adminkey': 401,
  'customer-mismatch': 401,
  'stale-timestamp': 401,
  'bad-signature': 401,
  'replayed-nonce': 401,
  'bad-console-token': 401,
  'sign-in-failed': 401,
  'not-signed-in': 401,
  'session-expired': 401,
  'host-not-allowed': 403,
  'other-tenant': 403,
  'customer-only': 403,
  'loopback-only': 403,
  'route-not-found': 404,
  'tenant-not-found': 404,
  'robot-not-found': 404,
  'rule-not-found': 404,
  'user-not-found': 404,
  'category-not-found': 404,
  'version-not-found': 404,
  'test-case-not-found': 404,
  'test-run-not-found': 404,
  'impact-job-not-found': 404,
  'session-not-found': 404,
  'username-taken': 409,
  'rule-name-taken': 409,
  'rule-exists': 409,
  'tenant-exists': 409,
  'request-timeout': 408,
  'category-name-taken': 409,
  'nothing-to-publish': 409,
  'nothing-to-discard': 409,
  'publish-blocked': 409,
  'publish-impact-too-large': 409,
  'body-too-large': 413,
  'path-param-too-long': 414,
  'bad-content-type': 415,
  'headers-too-large': 431,
  'too-many-sign-ins': 429,
  'internal-error': 500,
  'storage-failure': 500,
  'storage-unavailable': 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * What a failure's sentence is made of, for a program (the editor says it in its own words):
 * the rule that failed and its values. The console API answers them in `data` (docs/api.md).
 */
export interface ErrorDetail {
  /**
   * The rule that failed: an Ajv keyword (`maxLength`, `pattern`, `required`…) or a check of the
   * service (`date`, `date-order`, `not-above`, `range`…). Absent when the code says it all.
   */
  readonly keyword?: string;
  /** Its values: Ajv's params (`{ limit: 200 }`) or the check's (`{ other }`, `{ ruleName }`). */
  readonly params?: Readonly<Record<string, unknown>>;
}

export class ServiceError extends Error {
  readonly status: number;
  readonly keyword: string | undefined;
  readonly params: Readonly<Record<string, unknown>>;

  /**
   * @param field the request field at fault, when there is one (the editor marks that cell)
   * @param detail what the message is made of, for a program (ErrorDetail)
   */
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    detail: ErrorDetail = {},
  ) {
    super(message);
    this.name = 'ServiceError';
    this.status = ERROR_CODES[code];
    this.keyword = detail.keyword;
    this.params = detail.params ?? {};
  }
}
