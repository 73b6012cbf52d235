/**
 * The service logs through this seam so hosts (CLI, Electron, tests) choose where lines go.
 * Whatever a host chooses, the service's lines go through `redactingLogger` first: no query
 * string reaches a log with its values (the editor's per-launch token travels in one). The
 * console logger never lets the process's own output end it: a line that cannot be written (the
 * disk under an output file is full, the reader of a pipe went away) is dropped, and the next one
 * is written once it can be (docs/question-log.md, "Faults").
 * @module
 */
import { fstatSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';

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

let guarded = false;
/** Lines the process's output could not take since the start. */
let droppedLines = 0;

/**
 * Makes a failing stdout or stderr harmless: a stream's write error is an 'error' event, which
 * ends the process when nobody listens (a file on a full disk: ENOSPC; a closed pipe: EPIPE).
 */
export function guardProcessOutput(): void {
  if (guarded) return;
  guarded = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', () => {
      droppedLines += 1;
    });
  }
}

const direct = new Map<number, boolean>();
/** Whether an output is a file or a terminal, written to directly (see `writeLine`). */
function isDirect(fd: number): boolean {
  let known = direct.get(fd);
  if (known === undefined) {
    try {
      known = fstatSync(fd).isFile() || isatty(fd);
    } catch {
      known = false;
    }
    direct.set(fd, known);
  }
  return known;
}

/**
 * Writes a line to stdout (1) or stderr (2). A file or a terminal is written to directly: once
 * its stream has failed (ENOSPC) it stays broken, where a direct write of the next line works as
 * soon as there is space again. A pipe goes through its stream, whose errors the guard takes.
 */
export function writeLine(fd: 1 | 2, text: string): void {
  if (isDirect(fd)) {
    try {
      writeSync(fd, `${text}\n`);
    } catch {
      droppedLines += 1;
    }
    return;
  }
  const stream = fd === 1 ? process.stdout : process.stderr;
  if (stream.destroyed || !stream.writable) {
    droppedLines += 1;
    return;
  }
  stream.write(`${text}\n`);
}

/** Lines of the process's output dropped since the start (it could not take them). */
export function droppedOutputLines(): number {
  return droppedLines;
}

export function createConsoleLogger(prefix = 'kb-studio'): Logger {
  guardProcessOutput();
  return {
    info: (message) => writeLine(1, `[${prefix}] ${message}`),
    warn: (message) => writeLine(2, `[${prefix}] warn: ${message}`),
    error: (message, cause) =>
      writeLine(
        2,
        `[${prefix}] error: ${message} ${cause instanceof Error ? cause.stack : (cause ?? '')}`,
      ),
  };
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
