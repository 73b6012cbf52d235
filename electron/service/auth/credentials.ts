/**
 * The customer's credentials: generated on first start and kept in the data directory, or taken
 * from KB_CUSTOMER_ID / KB_ADMIN_KEY / KB_ADMIN_SECRET when all three are set.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../storage/durable-fs';

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

export function readCredentialsFile(dataDir: string): CustomerCredentials | null {
  try {
    const stored = JSON.parse(
      readFileSync(join(dataDir, CREDENTIALS_FILE), 'utf8'),
    ) as StoredCredentials;
    const parsed = {
      customerId: stored.customerId,
      adminKey: stored.adminkey ?? stored.adminKey,
      adminSecret: stored.adminsecret ?? stored.adminSecret,
    };
    if (parsed.customerId && parsed.adminKey && parsed.adminSecret) {
      return {
        customerId: parsed.customerId,
        adminKey: parsed.adminKey,
        adminSecret: parsed.adminSecret,
      };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return null;
}

/** The credentials in force: the environment's, else the data directory's, else new ones. */
export function loadCredentials(dataDir: string, env: NodeJS.ProcessEnv): CustomerCredentials {
  const fromEnv = credentialsFromEnv(env);
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
