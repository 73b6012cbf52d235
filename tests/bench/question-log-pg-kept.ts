/**
 * A team server's log filled once and kept (issue 28): filling a million asks on PostgreSQL takes
 * minutes, so `--question-log --database postgres://…/postgres --log-dir D` fills a database of
 * that cluster once (its name and the robot's keys in D/bench-filled-pg.json) and each run reads
 * a copy of it (`CREATE DATABASE … TEMPLATE`): the reads, the size budget and a newer build's
 * migrations change the copy, never the filled log, so builds can be read in turn on the same one.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

export interface FilledKeys {
  tenantId: number;
  robotSecret: string;
}

interface Marker extends FilledKeys {
  template: string;
}

function databaseUrl(cluster: string, name: string): string {
  const url = new URL(cluster);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(cluster: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: cluster });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A copy of the kept log (filled by `fill` first when D names none), dropped by `drop`. */
export async function copyOfFilled(
  cluster: string,
  dir: string,
  fill: (database: string) => Promise<FilledKeys>,
): Promise<{ database: string; filled: FilledKeys; drop: () => Promise<void> }> {
  mkdirSync(dir, { recursive: true });
  const markerFile = join(dir, 'bench-filled-pg.json');
  let marker: Marker;
  if (existsSync(markerFile)) {
    marker = JSON.parse(readFileSync(markerFile, 'utf8')) as Marker;
  } else {
    const template = `qlog_kept_${randomBytes(3).toString('hex')}`;
    await admin(cluster, (client) => client.query(`CREATE DATABASE ${template}`));
    const { tenantId, robotSecret } = await fill(databaseUrl(cluster, template));
    marker = { template, tenantId, robotSecret };
    writeFileSync(markerFile, JSON.stringify(marker));
  }
  const name = `qlog_run_${randomBytes(3).toString('hex')}`;
  const started = performance.now();
  await admin(cluster, (client) =>
    client.query(`CREATE DATABASE ${name} TEMPLATE ${marker.template}`),
  );
  console.error(`  copied the kept log in ${Math.round(performance.now() - started)} ms`);
  return {
    database: databaseUrl(cluster, name),
    filled: { tenantId: marker.tenantId, robotSecret: marker.robotSecret },
    drop: () =>
      admin(cluster, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}
