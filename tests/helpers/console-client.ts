/** A minimal client of the console API for tests (the editor has its own, in renderer/api). */
export interface ConsoleResponse<T> {
  status: number;
  body: { code: string; msg: string | null; data: T };
}

export function consoleClient(baseUrl: string, token: string) {
  async function call<T>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<ConsoleResponse<T>> {
    const response = await fetch(`${baseUrl}/console/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as ConsoleResponse<T>['body'] };
  }
  /** Like `call`, but throws unless the call succeeded, and returns `data`. */
  async function ok<T>(method: string, path: string, body?: unknown): Promise<T> {
    const { status, body: envelope } = await call<T>(method, path, body);
    if (envelope.code !== '0')
      throw new Error(`${method} ${path}: ${status} ${envelope.code} ${envelope.msg}`);
    return envelope.data;
  }
  return { call, ok };
}
