/** The store contract, run against the embedded (sql.js) store on a temporary data directory. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../electron/service/logger';
import { normalizeText } from '../../electron/service/matching/normalize';
import { EmbeddedStore } from '../../electron/service/store/embedded/embedded-store';
import { storeContract } from './store-contract';

storeContract('embedded (sql.js)', {
  create: async () => mkdtempSync(join(tmpdir(), 'kbstudio-contract-')),
  open: (dataDir) => EmbeddedStore.open({ dataDir, logger: silentLogger, textKey: normalizeText }),
  destroy: async (dataDir) => rmSync(dataDir, { recursive: true, force: true }),
});
