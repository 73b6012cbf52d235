/**
 * `npm run repair -- --data DIR [--dry-run]`: recovers a data directory whose journal KB Studio
 * refuses to open (a damaged record before its end, a missing seq, a record that no longer
 * replays). Keeps everything that can be kept, folds it into a new snapshot, keeps a copy of
 * every file it changes in DIR/repair-<time>/, and prints exactly what is lost. `--dry-run`
 * prints the same report and changes nothing. The service must be stopped. See docs/storage.md.
 * Exit code: 0 when the directory opens now (repaired, or nothing to repair), 1 otherwise.
 * @module
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { formatRepairReport, repairDataDir } from '../service/store/embedded/repair';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      data: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (!values.data) throw new Error('usage: npm run repair -- --data DIR [--dry-run]');
  const report = await repairDataDir({ dataDir: resolve(values.data), dryRun: values['dry-run'] });
  process.stdout.write(formatRepairReport(report));
}

main().catch((error: unknown) => {
  console.error(`kb-studio repair: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
