// `npm test`: every check, in order, each streamed as it runs; then one summary line
// `N passed, N failed, N skipped` over all the suites. Exits non-zero if anything failed.
import { spawn } from 'node:child_process';
import { checkPrerequisites } from './prerequisites.mjs';
import { countTests, failedTests } from './test-counts.mjs';

// Stops at once, with the command to run, when the machine lacks what the tests need.
checkPrerequisites();

const steps = [
  { name: 'typecheck', command: 'npm run -s typecheck' },
  { name: 'lint', command: 'npm run -s lint' },
  { name: 'build', command: 'npm run -s build' },
  { name: 'unit', command: 'node tests/run.mjs tests/unit tests/contract', counts: 'node' },
  { name: 'api', command: 'node tests/run.mjs tests/api', counts: 'node' },
  {
    // The same API suite on the team server's store (docs/team-server.md).
    name: 'api on PostgreSQL',
    command: 'npx tsx tests/with-postgres.ts node tests/run.mjs tests/api',
    counts: 'node',
  },
  {
    name: 'e2e',
    command: 'npx playwright test -c tests/e2e/playwright.config.ts',
    counts: 'playwright',
  },
  {
    name: 'desktop',
    command: 'npx playwright test -c tests/desktop/playwright.config.ts',
    counts: 'playwright',
  },
];

function run(step) {
  return new Promise((resolve) => {
    const child = spawn(step.command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const relay = (stream) => (chunk) => {
      output += chunk.toString();
      stream.write(chunk);
    };
    child.stdout.on('data', relay(process.stdout));
    child.stderr.on('data', relay(process.stderr));
    child.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

const total = { passed: 0, failed: 0, skipped: 0 };
const report = [];
const failures = [];
for (const step of steps) {
  console.log(`\n=== ${step.name}: ${step.command}`);
  const started = Date.now();
  const { code, output } = await run(step);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (step.counts) {
    const counts = countTests(step.counts, output);
    // A runner that failed without reporting a failed test (crash, config error) still fails.
    if (code !== 0 && counts.failed === 0) counts.failed = 1;
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
    for (const failure of failedTests(step.counts, output))
      failures.push(`${step.name}: ${failure}`);
    report.push(
      `${step.name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped (${seconds} s)`,
    );
  } else {
    if (code !== 0) total.failed += 1;
    report.push(`${step.name}: ${code === 0 ? 'ok' : 'FAILED'} (${seconds} s)`);
  }
}
if (failures.length > 0) console.log(`\n=== failed\n${failures.join('\n')}`);
console.log(`\n=== summary\n${report.join('\n')}`);
console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed > 0 ? 1 : 0);
