import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_WINDOW_STATE, fitOnScreen } from '../../../electron/desktop/window-state';
import { loadWindowState, parseWindowState } from '../../../electron/desktop/window-state';
import { saveWindowState } from '../../../electron/desktop/window-state';

const FULL_HD = { x: 0, y: 0, width: 1920, height: 1080 };
const RIGHT_SCREEN = { x: 1920, y: 0, width: 1280, height: 1024 };

describe('window state file', () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kbstudio-window-'));
    file = join(dir, 'window-state.json');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('round trip: what is saved is what is loaded', () => {
    const state = { x: 100, y: 50, width: 1000, height: 700, maximized: true };
    saveWindowState(file, state);
    assert.deepEqual(loadWindowState(file, [FULL_HD]), state);
    assert.deepEqual(readdirSync(dir), ['window-state.json'], 'no temporary file is left');
  });

  test('missing, corrupt or invalid files give the default state', () => {
    rmSync(file, { force: true });
    assert.deepEqual(loadWindowState(file, [FULL_HD]), DEFAULT_WINDOW_STATE);
    for (const text of ['{"x":1,', 'null', '[]', '{"width":"800","height":600}', '{"width":-5}']) {
      writeFileSync(file, text);
      assert.deepEqual(loadWindowState(file, [FULL_HD]), DEFAULT_WINDOW_STATE, text);
    }
  });

  test('an invalid state is not written', () => {
    saveWindowState(file, { x: 1, y: 1, width: 800, height: 600, maximized: false });
    saveWindowState(file, { width: Number.NaN, height: 600, maximized: false });
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).width, 800);
  });

  test('a position without both coordinates is dropped, other fields are cleaned', () => {
    assert.deepEqual(parseWindowState({ x: 5, width: 800, height: 600, maximized: 'yes', z: 1 }), {
      width: 800,
      height: 600,
      maximized: false,
    });
  });
});

describe('fitOnScreen', () => {
  const state = { width: 1000, height: 700, maximized: false };

  test('a window on a screen, or on a second screen, keeps its place', () => {
    assert.deepEqual(fitOnScreen({ ...state, x: 100, y: 100 }, [FULL_HD]), {
      ...state,
      x: 100,
      y: 100,
    });
    const onRight = { ...state, x: 2000, y: 10 };
    assert.deepEqual(fitOnScreen(onRight, [FULL_HD, RIGHT_SCREEN]), onRight);
  });

  test('off-screen positions are dropped so the window opens centred', () => {
    // The second screen was unplugged.
    assert.deepEqual(fitOnScreen({ ...state, x: 2000, y: 10 }, [FULL_HD]), state);
    // Far away, above the top edge (the title bar is unreachable), only a sliver showing.
    for (const [x, y] of [
      [-5000, -5000],
      [100, -300],
      [1900, 100],
    ]) {
      assert.deepEqual(fitOnScreen({ ...state, x: x ?? 0, y: y ?? 0 }, [FULL_HD]), state);
    }
  });

  test('partly off-screen but reachable stays', () => {
    const partly = { ...state, x: -500, y: 200 };
    assert.deepEqual(fitOnScreen(partly, [FULL_HD]), partly);
  });

  test('the size is limited to the largest screen and kept above the minimum', () => {
    const huge = fitOnScreen({ width: 5000, height: 3000, maximized: false }, [FULL_HD]);
    assert.deepEqual(huge, { width: 1920, height: 1080, maximized: false });
    const tiny = fitOnScreen({ width: 10, height: 10, maximized: false }, [FULL_HD]);
    assert.deepEqual(tiny, { width: 640, height: 400, maximized: false });
  });
});
