/**
 * The store contract, run against the PostgreSQL store on a new database of a throwaway cluster
 * (tests/helpers/postgres.ts).
 */
import { silentLogger } from '../../electron/service/logger';
import { normalizeText } from '../../electron/service/matching/normalize';
import { PostgresStore } from '../../electron/service/postgres/postgres-store';
import { freshDatabase } from '../helpers/postgres';
import { storeContract } from './store-contract';

storeContract('PostgreSQL', {
  create: () => freshDatabase('contract'),
  open: (url) => PostgresStore.open({ url, logger: silentLogger, textKey: normalizeText }),
  // The database goes with the cluster.
  destroy: async () => undefined,
});
