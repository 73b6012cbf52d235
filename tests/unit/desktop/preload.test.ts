/**
 * The preload, bundled as the build bundles it and run against a fake `electron`: it requires
 * nothing but `electron`, exposes exactly the bridge, and never hands IPC events to the editor.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { KbDesktopBridge } from '../../../electron/desktop/bridge';

async function bundlePreload(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../../../electron/preload.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    external: ['electron'],
    write: false,
    logLevel: 'error',
  });
  return result.outputFiles[0]?.text ?? '';
}

const LOCAL = 'http://127.0.0.1:8787';

function runPreload(code: string, argv: string[], pageOrigin = LOCAL) {
  const exposed: Record<string, unknown> = {};
  const listeners = new Map<string, (...args: unknown[]) => void>();
  const invoked: unknown[][] = [];
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
    ipcRenderer: {
      invoke: async (...args: unknown[]) => (invoked.push(args), null),
      on: (channel: string, listener: (...args: unknown[]) => void) =>
        listeners.set(channel, listener),
      removeListener: (channel: string) => listeners.delete(channel),
    },
  };
  const required: string[] = [];
  const fakeRequire = (name: string) => (required.push(name), electron);
  const fakeProcess = { platform: 'linux', argv };
  const fakeWindow = { location: { origin: pageOrigin } };
  new Function('require', 'process', 'module', 'exports', 'globalThis', code)(
    fakeRequire,
    fakeProcess,
    {},
    {},
    fakeWindow,
  );
  return { exposed, listeners, invoked, required };
}

describe('preload', () => {
  test('requires only electron and exposes exactly kbDesktop', async () => {
    const code = await bundlePreload();
    assert.deepEqual([...new Set(code.match(/require\("[^"]+"\)/g))], ['require("electron")']);
    const { exposed, required } = runPreload(code, [
      '--kb-version=2.0.1',
      `--kb-local-origin=${LOCAL}`,
    ]);
    assert.deepEqual([...new Set(required)], ['electron']);
    assert.deepEqual(Object.keys(exposed), ['kbDesktop']);
    const bridge = exposed.kbDesktop as KbDesktopBridge;
    assert.deepEqual(Object.keys(bridge).sort(), [
      'onMenu',
      'openExcelFile',
      'platform',
      'saveFile',
      'version',
    ]);
    assert.equal(bridge.platform, 'linux');
    assert.equal(bridge.version, '2.0.1');
  });

  test("a team server's page (another origin) gets no bridge at all", async () => {
    const code = await bundlePreload();
    const args = [`--kb-local-origin=${LOCAL}`];
    for (const origin of ['https://kb.example.com', 'http://127.0.0.1:9999', 'null']) {
      assert.deepEqual(Object.keys(runPreload(code, args, origin).exposed), [], origin);
    }
    assert.deepEqual(Object.keys(runPreload(code, [], LOCAL).exposed), [], 'no origin given');
  });

  test('file functions invoke their channels; menu callbacks get no IPC event', async () => {
    const { exposed, listeners, invoked } = runPreload(await bundlePreload(), [
      `--kb-local-origin=${LOCAL}`,
    ]);
    const bridge = exposed.kbDesktop as KbDesktopBridge;
    await bridge.openExcelFile();
    const bytes = new Uint8Array([1, 2]);
    await bridge.saveFile('kb.xlsx', bytes);
    assert.deepEqual(invoked, [['file:open-excel'], ['file:save', 'kb.xlsx', bytes]]);

    const calls: unknown[][] = [];
    const unsubscribe = bridge.onMenu('menu:import', (...args: unknown[]) => calls.push(args));
    listeners.get('menu:import')?.({ sender: 'secret ipc event' }, 'extra');
    assert.deepEqual(calls, [[]]);
    unsubscribe();
    assert.equal(listeners.has('menu:import'), false);
    assert.throws(() => bridge.onMenu('file:save' as 'menu:import', () => {}), /unknown menu/);
  });
});
