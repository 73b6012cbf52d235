/**
 * Which port the embedded API listens on, and what happens when it is taken.
 *
 * Local applications are configured with a fixed address, so the port is fixed (8787, the
 * headless default) unless preferences or `--port` say otherwise. If another program holds it,
 * the person chooses: a free port for this session only, or quit.
 * @module
 */
import { DEFAULT_API_PORT } from '../service/defaults';

export const DEFAULT_PORT = DEFAULT_API_PORT;

export type PortSource = 'flag' | 'preferences' | 'default';

/** `--port` first, then the preference, then the default. */
export function resolvePort(input: {
  flag?: number | undefined;
  preference?: number | undefined;
}): {
  port: number;
  source: PortSource;
} {
  if (input.flag !== undefined) return { port: input.flag, source: 'flag' };
  if (input.preference !== undefined) return { port: input.preference, source: 'preferences' };
  return { port: DEFAULT_PORT, source: 'default' };
}

export function isAddressInUse(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === 'EADDRINUSE'
  );
}

export type PortTakenChoice = 'other-port' | 'quit';

export interface Started<T> {
  value: T;
  /** True when the wanted port was taken and a free one is used for this session. */
  fallback: boolean;
}

/**
 * Starts on `port`; if it is in use, asks `onTaken` and either starts on a free port (0) or gives
 * up (`null`). Any other failure is thrown unchanged.
 */
export async function startOnPort<T>(
  start: (port: number) => Promise<T>,
  port: number,
  onTaken: (port: number) => Promise<PortTakenChoice>,
): Promise<Started<T> | null> {
  try {
    return { value: await start(port), fallback: false };
  } catch (error) {
    if (!isAddressInUse(error) || port === 0) throw error;
    if ((await onTaken(port)) === 'quit') return null;
    return { value: await start(0), fallback: true };
  }
}

/** The dialog shown when the port is taken; buttons in the order of `PORT_TAKEN_CHOICES`. */
export function portTakenMessage(port: number, host: string) {
  return {
    title: 'API port in use',
    message: `Port ${port} is already in use.`,
    detail:
      `Another program (perhaps another KB Studio or \`npm run serve\`) listens on ${host}:${port}. ` +
      `KB Studio can use a free port for this session: local applications configured for ` +
      `port ${port} will not reach it until the next launch. The port can be changed in ` +
      `Preferences.`,
    buttons: ['Use a free port this time', 'Quit'],
  };
}

export const PORT_TAKEN_CHOICES: readonly PortTakenChoice[] = ['other-port', 'quit'];
