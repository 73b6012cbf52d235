/** One problem of a body refused for several (the envelope's `errors`). */
export interface ApiProblem {
  field: string | null;
  code: string;
  msg: string;
}

/**
 * A failed call of the service: the envelope's code and sentence, the field at fault, and every
 * problem when a body was refused for several.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  readonly problems: readonly ApiProblem[];

  constructor(
    status: number,
    code: string,
    message: string,
    field?: string,
    problems: readonly ApiProblem[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.field = field;
    this.problems = problems;
  }
}

function problemsOf(errors: unknown): ApiProblem[] {
  if (!Array.isArray(errors)) return [];
  return errors.flatMap((item: unknown): ApiProblem[] => {
    const { field, code, msg } = (item ?? {}) as Record<string, unknown>;
    if (typeof code !== 'string' || typeof msg !== 'string') return [];
    return [{ field: typeof field === 'string' ? field : null, code, msg }];
  });
}

/** Reads an envelope; resolves with `data` on code "0", throws ApiError otherwise. */
export async function readEnvelope<T>(response: Response): Promise<T> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ApiError(response.status, 'network-error', `HTTP ${response.status}`);
  }
  const envelope = body as { code?: unknown; msg?: unknown; data?: unknown; errors?: unknown };
  if (response.ok && envelope.code === '0') return envelope.data as T;
  const data = envelope.data as { field?: unknown } | null | undefined;
  throw new ApiError(
    response.status,
    typeof envelope.code === 'string' ? envelope.code : 'unknown',
    typeof envelope.msg === 'string' ? envelope.msg : `HTTP ${response.status}`,
    typeof data?.field === 'string' ? data.field : undefined,
    problemsOf(envelope.errors),
  );
}
