/**
 * The e2e `test`: each test gets its own service (data directory, port, token), and `shoot`
 * saves screenshots of the page at 1280×800 and 1920×1080 into artifacts/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test as base } from '@playwright/test';
import type { Page } from '@playwright/test';
import { startService } from './support/service';
import type { RunningService } from './support/service';

export { expect } from '@playwright/test';

export const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'artifacts', 'screenshots');

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;

/** Screenshots of the page as it is, at both sizes, then back to the first. */
export async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const size of [...SIZES].reverse()) {
    await page.setViewportSize(size);
    // Two frames, for the layout to settle (source text: this file is type-checked for Node).
    await page.evaluate(
      'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))',
    );
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${size.width}x${size.height}.png`) });
  }
}

export const test = base.extend<{ service: RunningService }>({
  // eslint-disable-next-line no-empty-pattern
  service: async ({}, use) => {
    const service = await startService();
    await use(service);
    await service.stop();
  },
  // Every page fails its test on a Content-Security-Policy violation (Chromium says so on the
  // console): the editor runs under its policy, no eval included (editor-policy.ts).
  // An uncaught error in the editor fails its test too: a user would meet it as a screen that
  // stops responding, whatever the test was checking.
  page: async ({ page }, use) => {
    const violations: string[] = [];
    const uncaught: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    page.on('pageerror', (error) => uncaught.push(`${error.name}: ${error.message}`));
    await use(page);
    expect(violations, 'CSP violations').toEqual([]);
    expect(uncaught, 'uncaught errors in the editor').toEqual([]);
  },
});
