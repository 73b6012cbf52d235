/**
 * The service logs through this seam so hosts (CLI, Electron, tests) choose where lines go.
 * Whatever a host chooses, the service's lines go through `redactingLogger` first: no query
 * string reaches a log with its values (the editor's per-launch token travels in one).
 * @module
 */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, cause?: unknown): void;
}

/** A path followed by its query string, up to a blank or a quote. */
const QUERY_AFTER_PATH = /(\/[^\s?'"`]*)\?([^\s'"`#]*)/g;

/**
 * `text` with the value of every query parameter after a path replaced by `…`, the names kept:
 * `GET /%zz?token=abc&x=1` → `GET /%zz?token=…&x=…`.
 */
export function redactQueryStrings(text: string): string {
  return text.replace(QUERY_AFTER_PATH, (_match, path: string, whole: string) => {
    // Punctuation that ends the query in a sentence (`GET /a?b=1: 400`) stays after it.
    const trailing = /[:,;.)\]]*$/.exec(whole)?.[0] ?? '';
    const query = whole.slice(0, whole.length - trailing.length);
    const names = query
      .split('&')
      .filter((pair) => pair !== '')
      .map((pair) => {
        const equals = pair.indexOf('=');
        return equals < 0 ? pair : `${pair.slice(0, equals)}=…`;
      });
    return `${path}?${names.join('&')}${trailing}`;
  });
}

/** `cause` as the host's logger gets it: an error's message and stack redacted too. */
function redactedCause(cause: unknown): unknown {
  if (!(cause instanceof Error))
    return typeof cause === 'string' ? redactQueryStrings(cause) : cause;
  const copy = new Error(redactQueryStrings(cause.message));
  copy.name = cause.name;
  copy.stack = cause.stack === undefined ? undefined : redactQueryStrings(cause.stack);
  return copy;
}

/** `logger` with query strings redacted from every line (config.ts wraps every host's logger). */
export function redactingLogger(logger: Logger): Logger {
  return {
    info: (message) => logger.info(redactQueryStrings(message)),
    warn: (message) => logger.warn(redactQueryStrings(message)),
    error: (message, cause) => logger.error(redactQueryStrings(message), redactedCause(cause)),
  };
}

export function createConsoleLogger(prefix = 'kb-studio'): Logger {
  return {
    info: (message) => console.log(`[${prefix}] ${message}`),
    warn: (message) => console.warn(`[${prefix}] warn: ${message}`),
    error: (message, cause) =>
      console.error(
        `[${prefix}] error: ${message}`,
        cause instanceof Error ? cause.stack : (cause ?? ''),
      ),
  };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
