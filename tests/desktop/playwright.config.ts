/**
 * `npm run test:desktop`: the Electron smoke test. It needs Electron's binary; where the binary
 * was not downloaded the test is reported as skipped, with the reason.
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  timeout: 90_000,
  workers: 1,
  forbidOnly: !!process.env.CI,
  reporter: [['list', { printSteps: false }]],
  outputDir: '../../artifacts/desktop',
});
