import type { ConsoleProblem } from '../../electron/service/console-types';

/**
 * One problem of a body refused for several: the envelope's `errors` item (field, code,
 * sentence) and, from the console API, what failed with its values (`data.problems`).
 */
export interface ApiProblem {
  field: string | null;
  code: string;
  msg: string;
  keyword?: string | undefined;
  params?: Record<string, unknown> | undefined;
}

/** What a failure says besides its code and sentence (the console API's `data`). */
export interface ApiErrorDetail {
  field?: string | undefined;
  /** What failed: an Ajv keyword or a check of the service (ConsoleProblem). */
  keyword?: string | undefined;
  params?: Record<string, unknown> | undefined;
  problems?: readonly ApiProblem[];
}

/**
 * A failed call of the service: the envelope's code and sentence, the field at fault, what
 * failed with its values (console API only), and every problem when a body was refused for
 * several.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  readonly keyword: string | undefined;
  readonly params: Record<string, unknown>;
  readonly problems: readonly ApiProblem[];

  constructor(status: number, code: string, message: string, detail: ApiErrorDetail = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.field = detail.field;
    this.keyword = detail.keyword;
    this.params = detail.params ?? {};
    this.problems = detail.problems ?? [];
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const stringOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** A `ConsoleProblem` as read from the wire: only what has the right type. */
function problemOf(value: unknown): ConsoleProblem {
  if (!isRecord(value)) return {};
  const field = stringOf(value.field);
  const keyword = stringOf(value.keyword);
  return {
    ...(field !== undefined ? { field } : {}),
    ...(keyword !== undefined ? { keyword } : {}),
    ...(isRecord(value.params) ? { params: value.params } : {}),
  };
}

/** The envelope's `errors`, each with its `data.problems` item (the same order) when there is one. */
function problemsOf(errors: unknown, details: unknown): ApiProblem[] {
  if (!Array.isArray(errors)) return [];
  const said: unknown[] = Array.isArray(details) ? details : [];
  return errors.flatMap((item: unknown, i): ApiProblem[] => {
    if (!isRecord(item)) return [];
    const { field, code, msg } = item;
    if (typeof code !== 'string' || typeof msg !== 'string') return [];
    const { keyword, params } = problemOf(said[i]);
    return [{ field: typeof field === 'string' ? field : null, code, msg, keyword, params }];
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
  const envelope = isRecord(body) ? body : {};
  if (response.ok && envelope.code === '0') return envelope.data as T;
  const data = isRecord(envelope.data) ? envelope.data : {};
  throw new ApiError(
    response.status,
    typeof envelope.code === 'string' ? envelope.code : 'unknown',
    typeof envelope.msg === 'string' ? envelope.msg : `HTTP ${response.status}`,
    { ...problemOf(data), problems: problemsOf(envelope.errors, data.problems) },
  );
}
