/**
 * Window size and position, remembered in `<userData>/window-state.json`. The file is validated
 * on read (anything odd means defaults) and a position that is no longer on a screen (a monitor
 * was unplugged, the resolution changed) is dropped so the window opens centred.
 * @module
 */
import { isRecord, readJson, writeJsonAtomic } from './atomic-json';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  /** Absent: let the system place the window (centred). */
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export const WINDOW_STATE_FILE = 'window-state.json';
export const DEFAULT_WINDOW_STATE: WindowState = { width: 1280, height: 800, maximized: false };
export const MIN_WINDOW_SIZE = { width: 640, height: 400 };
/** How much of the window's top strip (the title bar) must be on a screen to be reachable. */
const VISIBLE = { width: 100, height: 30 };

const isInt = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value);

/** The state in `value`, or `null` if it is not a valid one. */
export function parseWindowState(value: unknown): WindowState | null {
  if (!isRecord(value)) return null;
  const { x, y, width, height, maximized } = value;
  if (!isInt(width) || !isInt(height) || width <= 0 || height <= 0) return null;
  const state: WindowState = { width, height, maximized: maximized === true };
  if (isInt(x) && isInt(y)) {
    state.x = x;
    state.y = y;
  }
  return state;
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/**
 * Keeps the state usable on the current screens (`workAreas`, the primary first): the size is
 * limited to the largest work area and kept above the minimum, and the position is dropped
 * unless enough of the title bar is on some screen.
 */
export function fitOnScreen(state: WindowState, workAreas: readonly Rect[]): WindowState {
  if (workAreas.length === 0) return { ...state };
  const maxWidth = Math.max(...workAreas.map((area) => area.width));
  const maxHeight = Math.max(...workAreas.map((area) => area.height));
  const width = Math.max(MIN_WINDOW_SIZE.width, Math.min(state.width, maxWidth));
  const height = Math.max(MIN_WINDOW_SIZE.height, Math.min(state.height, maxHeight));
  const fitted: WindowState = { width, height, maximized: state.maximized };
  if (state.x === undefined || state.y === undefined) return fitted;
  const titleBar = { x: state.x, y: state.y, width, height: VISIBLE.height };
  const reachable = workAreas.some((area) => {
    const o = overlap(titleBar, area);
    return o.width >= Math.min(VISIBLE.width, width) && o.height >= VISIBLE.height;
  });
  return reachable ? { ...fitted, x: state.x, y: state.y } : fitted;
}

/** The saved state fitted to the screens, or the default one. */
export function loadWindowState(file: string, workAreas: readonly Rect[]): WindowState {
  return fitOnScreen(parseWindowState(readJson(file)) ?? DEFAULT_WINDOW_STATE, workAreas);
}

export function saveWindowState(file: string, state: WindowState): void {
  const valid = parseWindowState(state);
  if (valid) writeJsonAtomic(file, valid);
}
