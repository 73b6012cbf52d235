/**
 * The store contract, run against the PostgreSQL store on new databases of a throwaway cluster
 * (tests/helpers/postgres.ts): one in byte order (the test cluster's locale), one with an
 * English collation (where 'a' < 'B'), as a production cluster may have: the store compares
 * text as bytes either way, as SQLite does.
 */
import { silentLogger } from '../../electron/service/logger';
import { normalizeText } from '../../electron/service/matching/normalize';
import { PostgresStore } from '../../electron/service/postgres/postgres-store';
import { freshDatabase } from '../helpers/postgres';
import { storeContract } from './store-contract';

const open = (url: string) =>
  PostgresStore.open({ url, logger: silentLogger, textKey: normalizeText });
// Databases go with the cluster.
const destroy = async () => undefined;

storeContract('PostgreSQL', { create: () => freshDatabase('contract'), open, destroy });

storeContract('PostgreSQL, English collation', {
  create: () => freshDatabase('contract_en', { icuLocale: 'en' }),
  open,
  destroy,
});
