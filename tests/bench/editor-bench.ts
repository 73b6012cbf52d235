/**
 * Editor benchmark, in real Chromium against the built service (`npm run build` first):
 *   1. import of a 10,000-row .xlsx end to end in the browser (parse in the worker, check every
 *      row, send batches of 200 through the signed batch route, report);
 *   2. the grid's scrolling with 100,000 rules (seeded through the batch route, 100 × 1000):
 *      frames per second measured in the page with requestAnimationFrame while the grid is
 *      scrolled programmatically, steadily and by jumps.
 * Run: npx tsx tests/bench/editor-bench.ts
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import type { Page } from '@playwright/test';
import { importRules, registerTenant, sampleRules } from '../e2e/support/seed';
import { startService } from '../e2e/support/service';
import { consoleClient } from '../helpers/console-client';
import type { ConsoleRobot } from '../../electron/service/console-types';

const ROOT = join(import.meta.dirname, '..', '..');

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

/**
 * Scrolls the grid for `durationMs`, one step a frame (steady) or a random jump every ten
 * frames, and counts frames. Written as source text: tsx would otherwise add helpers to the
 * function that do not exist in the page.
 */
const SCROLL_SCRIPT = `({ mode, step, durationMs }) => new Promise((resolve) => {
  const grid = document.querySelector('.rules-grid');
  const start = performance.now();
  let last = start, frames = 0, worst = 0, over50 = 0;
  const max = grid.scrollHeight - grid.clientHeight;
  const tick = (now) => {
    frames += 1;
    worst = Math.max(worst, now - last);
    if (now - last > 50) over50 += 1;
    last = now;
    if (mode === 'steady') grid.scrollTop = Math.min(max, grid.scrollTop + step);
    else if (frames % 10 === 0) grid.scrollTop = Math.random() * max;
    if (now - start < durationMs) requestAnimationFrame(tick);
    else resolve({ frames, fps: (frames * 1000) / (now - start), worst, over50 });
  };
  requestAnimationFrame(tick);
})`;

interface ScrollResult {
  frames: number;
  fps: number;
  worst: number;
  over50: number;
}

async function measureScroll(
  page: Page,
  mode: 'steady' | 'jumps',
  step: number,
  durationMs: number,
): Promise<ScrollResult> {
  return (await page.evaluate(
    `(${SCROLL_SCRIPT})(${JSON.stringify({ mode, step, durationMs })})`,
  )) as ScrollResult;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'kbstudio-bench-'));
  const xlsx = join(work, 'rules-10000.xlsx');
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
      join(ROOT, 'tests', 'fixtures', 'make-fixtures.ts'),
      '--rows',
      '10000',
      '--out',
      xlsx,
    ],
    { stdio: 'inherit' },
  );
  const service = await startService();
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  try {
    const robot = await registerTenant(service, 'Bench');
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    await page.goto(service.editorUrl);
    await page.getByRole('button', { name: /Default robot/ }).click();
    await page.getByTestId('rule-total').filter({ hasText: '0 rules' }).waitFor();

    // 1. Import of 10,000 rows.
    await page.getByTestId('rules-view').getByRole('button', { name: 'Import' }).first().click();
    const dialog = page.getByTestId('import-dialog');
    const t0 = performance.now();
    await dialog.getByTestId('import-file').setInputFiles(xlsx);
    await dialog.getByTestId('import-summary').waitFor({ timeout: 120_000 });
    const parsed = performance.now();
    await dialog.getByRole('button', { name: /^Import [\d,]+ rows$/ }).click();
    await dialog.getByTestId('import-report').waitFor({ timeout: 600_000 });
    const done = performance.now();
    const created = await dialog.getByTestId('report-created').textContent();
    console.log('\nExcel import, 10,000 rows (batches of 200)');
    console.log(`  parse + check in the browser: ${seconds(parsed - t0)}`);
    console.log(`  send + report:                ${seconds(done - parsed)}`);
    console.log(`  end to end:                   ${seconds(done - t0)}  (${created} created)`);
    console.log(`  rows per second:              ${Math.round(10_000 / ((done - t0) / 1000))}`);
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();

    // 2. Grid scrolling with 100,000 rules.
    const api = consoleClient(service.baseUrl, service.token);
    const big = await api.ok<ConsoleRobot>('POST', `/tenants/${robot.tenantId}/robots`, {
      name: 'Big',
    });
    const target = { ...robot, robotId: big.robotId, robotSecret: big.robotSecret };
    const s0 = performance.now();
    await importRules(service, target, sampleRules(100_000, 'Big'));
    console.log(
      `\nSeeded 100,000 rules through the batch route: ${seconds(performance.now() - s0)}`,
    );
    const o0 = performance.now();
    await page.goto(`${service.baseUrl}/#/tenants/${robot.tenantId}/robots/${big.robotId}`);
    await page.getByTestId('rule-total').filter({ hasText: '100,000 rules' }).waitFor();
    await page.locator('.rules-grid [aria-rowindex="2"]').filter({ hasText: 'Big 0001' }).waitFor();
    console.log(`Grid with 100,000 rules shown in: ${seconds(performance.now() - o0)}`);

    const runs = [
      { label: 'one row a frame (36 px)', mode: 'steady', step: 36 },
      { label: 'fast, 240 px a frame   ', mode: 'steady', step: 240 },
      { label: 'random jumps, 10 frames', mode: 'jumps', step: 0 },
    ] as const;
    for (const run of runs) {
      await page.evaluate("document.querySelector('.rules-grid').scrollTo({ top: 0 })");
      const result = await measureScroll(page, run.mode, run.step, 5000);
      console.log(
        `  scroll ${run.label}: ${result.fps.toFixed(1)} fps (worst frame ${result.worst.toFixed(0)} ms, ${result.over50} of ${result.frames} frames over 50 ms)`,
      );
    }
    const settle = performance.now();
    await page.waitForFunction(
      "document.querySelectorAll('.rules-grid .cell-skeleton').length === 0",
    );
    console.log(
      `  rows on screen loaded ${seconds(performance.now() - settle)} after scrolling stopped`,
    );
  } finally {
    await browser.close();
    await service.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
