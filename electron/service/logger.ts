/** The service logs through this seam so hosts (CLI, Electron, tests) choose where lines go. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string, cause?: unknown): void;
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
