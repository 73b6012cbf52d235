/** A failed call of the service: the envelope's code and sentence, and the field at fault. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;

  constructor(status: number, code: string, message: string, field?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/** Reads an envelope; resolves with `data` on code "0", throws ApiError otherwise. */
export async function readEnvelope<T>(response: Response): Promise<T> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ApiError(response.status, 'network-error', `HTTP ${response.status}`);
  }
  const envelope = body as { code?: unknown; msg?: unknown; data?: unknown };
  if (response.ok && envelope.code === '0') return envelope.data as T;
  const data = envelope.data as { field?: unknown } | null | undefined;
  throw new ApiError(
    response.status,
    typeof envelope.code === 'string' ? envelope.code : 'unknown',
    typeof envelope.msg === 'string' ? envelope.msg : `HTTP ${response.status}`,
    typeof data?.field === 'string' ? data.field : undefined,
  );
}
