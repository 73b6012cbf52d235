/**
 * The import load of the ask-under-import benchmark, in a process of its own so that building,
 * signing and reading its batches (half a megabyte each way) does not hold up the process that
 * times the asks: `node --import tsx tests/bench/import-load.ts URL RULES SEED`. Registers two
 * tenants, prints `ready`, waits for a line on stdin, then both import RULES generated rules in
 * batches of 1000 at once and it prints `imported N` and exits.
 */
import { createInterface } from 'node:readline';
import { OpenApiClient } from '../../electron/client/openapi-client';
import { TEST_CREDENTIALS, tenantRequest } from '../helpers/service';
import { generateRules } from './generate-rules';

const [url = '', count = '10000', seed = '7'] = process.argv.slice(2);
const rules = generateRules(Number(count), Number(seed));
const client = new OpenApiClient({ baseUrl: url, ...TEST_CREDENTIALS });
const importers = await Promise.all(
  [0, 1].map(async (i) => {
    // Companies of their own: the process asking may have registered `tenantRequest()`'s first.
    const request = tenantRequest({ company: `import load ${i}` });
    const { tenantId } = await client.registerTenant(request);
    const [robot] = await client.listRobots(tenantId);
    return client.robot(tenantId, 'default', robot?.robotSecret ?? '');
  }),
);
console.log('ready');
await new Promise<void>((resolve) =>
  createInterface({ input: process.stdin }).once('line', () => resolve()),
);
let imported = 0;
await Promise.all(
  importers.map(async (importer) => {
    for (let i = 0; i < rules.length; i += 1000) {
      const { succeed } = await importer.importRules(rules.slice(i, i + 1000));
      imported += succeed.length;
    }
  }),
);
console.log(`imported ${imported}`);
process.exit(0);
