/**
 * The customer's credentials: generated on first start and kept in the data directory, or taken
 * from KB_CUSTOMER_ID / KB_ADMIN_KEY / KB_ADMIN_SECRET when all three are set.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../files/durable-fs';

export interface CustomerCredentials {
  customerId: string;
  adminKey: string;
  adminSecret: string;
}

export const CREDENTIALS_FILE = 'credentials.json';

const ENV_NAMES = ['KB_CUSTOMER_ID', 'KB_ADMIN_KEY', 'KB_ADMIN_SECRET'] as const;

/** A random string of URL-safe characters, as good as `bytes` of entropy. */
export function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

export function credentialsFromEnv(env: NodeJS.ProcessEnv): CustomerCredentials | null {
  const values = ENV_NAMES.map((name) => env[name]);
  const set = values.filter((v) => v !== undefined && v !== '').length;
  if (set === 0) return null;
  if (set !== ENV_NAMES.length) {
    throw new Error(`Set all of ${ENV_NAMES.join(', ')} or none of them (${set} of 3 are set).`);
  }
  const [customerId, adminKey, adminSecret] = values as [string, string, string];
  return { customerId, adminKey, adminSecret };
}

/**
 * The file spells the keys as the wire does (`customerId`, `adminkey`, `adminsecret`); files
 * written before that (`adminKey`, `adminSecret`) are read too.
 */
interface StoredCredentials {
  customerId?: string;
  adminkey?: string;
  adminsecret?: string;
  adminKey?: string;
  adminSecret?: string;
}

function toStored(credentials: CustomerCredentials): StoredCredentials {
  const { customerId, adminKey: adminkey, adminSecret: adminsecret } = credentials;
  return { customerId, adminkey, adminsecret };
}

/** Each field of the file: its name in messages, and where it may be read from. */
const FIELDS = [
  { name: 'customerId', keys: ['customerId'] },
  { name: 'adminkey', keys: ['adminkey', 'adminKey'] },
  { name: 'adminsecret', keys: ['adminsecret', 'adminSecret'] },
] as const;

/** `credentials.json` exists but cannot be used: the message names the file and what is wrong. */
export class CredentialsFileError extends Error {
  constructor(path: string, problem: string) {
    super(
      `${CREDENTIALS_FILE} (${path}) ${problem}. It must be a JSON object with the text fields ${FIELDS.map((f) => f.name).join(', ')}. ` +
        'Fix the file, or set KB_CUSTOMER_ID, KB_ADMIN_KEY and KB_ADMIN_SECRET to use other credentials. ' +
        '(Deleting it makes KB Studio generate new credentials, which every client would then need.)',
    );
    this.name = 'CredentialsFileError';
  }
}

/**
 * The data directory's credentials, or null when there is no file (a first start). A file that
 * is there but unusable is refused with a message, never replaced: new credentials would lock
 * every existing client out.
 */
export function readCredentialsFile(dataDir: string): CustomerCredentials | null {
  const path = join(dataDir, CREDENTIALS_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new CredentialsFileError(path, `cannot be read (${(error as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CredentialsFileError(path, `is not valid JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new CredentialsFileError(path, 'is not a JSON object');
  const stored = parsed as Record<string, unknown>;
  const values = FIELDS.map(({ keys }) =>
    keys.map((key) => stored[key]).find((v) => v !== undefined),
  );
  const bad = FIELDS.filter((_, i) => typeof values[i] !== 'string' || values[i] === '').map(
    (f) => f.name,
  );
  if (bad.length > 0)
    throw new CredentialsFileError(
      path,
      `lacks ${bad.length === 1 ? 'the field' : 'the fields'} ${bad.join(', ')} (or ${bad.length === 1 ? 'it is' : 'they are'} not text)`,
    );
  const [customerId, adminKey, adminSecret] = values as [string, string, string];
  return { customerId, adminKey, adminSecret };
}

/**
 * The credentials in force: the environment's (`credentialsFromEnv`, read by the service's
 * configuration), else the data directory's, else new ones.
 */
export function loadCredentials(
  dataDir: string,
  fromEnv: CustomerCredentials | null,
): CustomerCredentials {
  if (fromEnv) return fromEnv;
  const stored = readCredentialsFile(dataDir);
  if (stored) return stored;
  const generated: CustomerCredentials = {
    customerId: `c${randomBytes(8).toString('hex')}`,
    adminKey: randomToken(18),
    adminSecret: randomToken(32),
  };
  writeFileAtomic(
    join(dataDir, CREDENTIALS_FILE),
    JSON.stringify(toStored(generated), null, 2),
    0o600,
  );
  return generated;
}
