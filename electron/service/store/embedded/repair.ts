/**
 * Recovery of a data directory whose journal the service refuses to open (`npm run repair`):
 * the snapshot plus every whole journal record that can still be replayed becomes the new
 * snapshot, and the report says exactly what could not be kept, record by record, in words.
 *
 * What is kept: every whole record after the snapshot, in seq order, each replayed in its own
 * transaction as at a normal open. What is lost: damaged records (their seqs are those missing
 * between the whole records around the damage), and records that no longer replay without them
 * (a constraint fails). A record kept after a lost one is applied without it, which the report
 * says too, with every update or delete that then changed no row.
 *
 * Nothing is changed before a copy is kept: the snapshot, the journal segments and the saved
 * matching index (a cache, rebuilt at the next start) are copied into `repair-<time>/` inside
 * the data directory, with the report; then the new snapshot is written atomically, and only
 * then are the old segments and the index removed. A crash at any point leaves the old files, or
 * the new snapshot beside old segments it covers; running the repair again finishes the job.
 * @module
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { Database as SqlJsDatabase } from 'sql.js';
import {
  SNAPSHOT_FILE,
  applyRecord,
  snapshotProblem,
  snapshotTrailer,
  bindable,
  databaseSeq,
  loadSqlJs,
  openDatabase,
  readSnapshot,
} from './database';
import { describeRecord } from './describe-record';
import { DIRECTORY_MODE, fsyncDirectory, writeFileAtomic } from '../../files/durable-fs';
import { INDEX_FILE } from './index-file';
import { CUT_SHORT, SET_ASIDE, listSegments, readSegment } from './journal';
import type { JournalRecord } from './journal';
import { acquireDataDirLock } from '../../files/data-dir-lock';

/** A change that is not in the repaired database. */
export interface LostChange {
  /** The seqs it held: one, a range, or unknown (damage before the first whole record). */
  seqs: number[];
  file: string;
  offset: number;
  bytes: number;
  why: string;
  /** What it was, in words, or what could be read of it. */
  what: string;
}

export interface RepairReport {
  dataDir: string;
  snapshotSeq: number;
  /** The repaired database's seq. */
  seq: number;
  /** Records replayed after the snapshot. */
  kept: number;
  lost: LostChange[];
  /** Kept records replayed after a lost one (they were applied without it). */
  keptAfterLoss: number[];
  /** Updates and deletes of kept records that changed no row (they may have needed a lost change). */
  noEffect: { seq: number; what: string }[];
  /**
   * Bytes at the very end of the journal: an append interrupted by a crash, or (`damaged`) a
   * last record whole by its length that does not check out, which may have been acknowledged.
   */
  tornTail: { file: string; offset: number; bytes: number; what: string; damaged: boolean } | null;
  /**
   * The snapshot did not check out (`snapshotProblem`): why, and what SQLite's integrity check
   * says of what it holds. The repair writes it again with a new checksum.
   */
  snapshotDamage: { reason: string; integrity: string } | null;
  /**
   * Damaged last records the service set aside when it started (journal.ts, `setAside`): the
   * file beside the journal, and what it held.
   */
  setAside: { file: string; what: string }[];
  /** Where the copies went; null when nothing needed changing, or on a dry run. */
  backupDir: string | null;
  /** Files changed or removed (each has its copy in backupDir). */
  changed: string[];
  dryRun: boolean;
}

export interface RepairOptions {
  dataDir: string;
  /** Report only; change nothing. */
  dryRun?: boolean;
  now?: Date;
}

/**
 * If `json` differs from the bytes its checksum was taken of by one flipped bit, the bytes with
 * that bit flipped back. CRC-32 tells a single-bit error apart at any position of a record (its
 * Hamming distance is at least 3 up to 512 MB): the difference it makes to the checksum is the
 * checksum register's response to one bit, different for every position. Used to describe what
 * a damaged record held, never to keep it: a larger error can, rarely, look like one bit.
 */
function flipBackOneBit(json: Buffer, expectedCrc: number): Buffer | null {
  const syndrome = (crc32(json) ^ expectedCrc) >>> 0;
  let difference = 1;
  for (let bit = json.length * 8 - 1; bit >= 0; bit--) {
    difference = ((difference >>> 1) ^ (difference & 1 ? 0xedb88320 : 0)) >>> 0;
    if (difference === syndrome) {
      const fixed = Buffer.from(json);
      fixed[bit >> 3] = (fixed[bit >> 3] ?? 0) ^ (1 << (bit & 7));
      return fixed;
    }
  }
  return null;
}

function parseRecord(json: Buffer): JournalRecord | null {
  try {
    const record = JSON.parse(json.toString('utf8')) as JournalRecord;
    return Array.isArray(record.sql) && Array.isArray(record.ops) ? record : null;
  } catch {
    return null;
  }
}

/** SQLite's `PRAGMA integrity_check` of `db`, in one line. */
function integrityOf(db: SqlJsDatabase): string {
  try {
    const rows = db.exec('PRAGMA integrity_check')[0]?.values ?? [];
    return rows.map((row) => String(row[0])).join('; ') || 'no answer';
  } catch (error) {
    return `it failed (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** What a damaged stretch held, in words, as far as it can be told. */
function describeDamaged(bytes: Buffer): string {
  const header = /^([0-9a-f]{8})\t(\d{1,10})\t/.exec(bytes.subarray(0, 21).toString('latin1'));
  const start = header ? header[0].length : bytes.indexOf('{');
  const declared = header ? Number(header[2]) : -1;
  const end =
    declared > 0 && start + declared <= bytes.length
      ? start + declared
      : bytes.lastIndexOf('}') + 1;
  if (start >= 0 && end > start) {
    const json = bytes.subarray(start, end);
    const expected = header ? parseInt(header[1] ?? '', 16) : null;
    if (expected !== null && crc32(json) === expected) {
      const record = parseRecord(json);
      if (record)
        return `${describeRecord(record)} (its content is intact: only the bytes around it are damaged)`;
    }
    const corrected = expected === null ? null : flipBackOneBit(json, expected);
    const exact = corrected ? parseRecord(corrected) : null;
    if (exact)
      return `${describeRecord(exact)} (read after flipping back the one bit its checksum points to)`;
    const approximate = parseRecord(json);
    if (approximate)
      return `${describeRecord(approximate)} (read from damaged bytes: details may be wrong)`;
  }
  const text = bytes.toString('utf8');
  const seq = /"seq":(\d+)/.exec(text)?.[1];
  const statements = [
    ...new Set(
      [...text.matchAll(/(INSERT|UPDATE|DELETE)(?: OR \w+)?(?: INTO| FROM)? (\w+)/gi)].map(
        (m) => `${(m[1] ?? '').toUpperCase()} ${m[2] ?? ''}`,
      ),
    ),
  ];
  const parts = [
    seq ? `seq ${seq}` : null,
    statements.length > 0 ? `statements ${statements.join(', ')}` : null,
  ].filter(Boolean);
  return `unreadable${parts.length > 0 ? `; what can be made out: ${parts.join('; ')}` : ''}`;
}

const DML_THAT_FINDS_ROWS = /^\s*(UPDATE|DELETE)\b/i;

function timestamp(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}${p(date.getMonth() + 1)}${p(date.getDate())}-${p(date.getHours())}${p(date.getMinutes())}${p(date.getSeconds())}`;
}

function seqRange(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}

/**
 * Repairs the data directory (see the module comment). Refuses, like the service, when another
 * process holds the directory.
 */
export async function repairDataDir(options: RepairOptions): Promise<RepairReport> {
  const { dataDir } = options;
  const dryRun = options.dryRun ?? false;
  if (!existsSync(dataDir)) throw new Error(`There is no data directory at ${dataDir}.`);
  const lock = acquireDataDirLock(dataDir);
  let db: SqlJsDatabase | undefined;
  try {
    const [SQL, snapshot] = await Promise.all([
      loadSqlJs(),
      readSnapshot(join(dataDir, SNAPSHOT_FILE), { verify: false }),
    ]);
    const snapshotDamage = snapshot
      ? snapshotProblem(readFileSync(join(dataDir, SNAPSHOT_FILE)))
      : null;
    db = openDatabase(SQL, snapshot);
    const database = db;
    const snapshotSeq = databaseSeq(database);
    const segments = listSegments(dataDir);
    const report: RepairReport = {
      dataDir,
      snapshotSeq,
      seq: snapshotSeq,
      kept: 0,
      lost: [],
      keptAfterLoss: [],
      noEffect: [],
      tornTail: null,
      snapshotDamage:
        snapshotDamage === null
          ? null
          : { reason: snapshotDamage, integrity: integrityOf(database) },
      setAside: readdirSync(dataDir)
        .filter((name) => SET_ASIDE.test(name))
        .sort()
        .map((file) => ({ file, what: describeDamaged(readFileSync(join(dataDir, file))) })),
      backupDir: null,
      changed: [],
      dryRun,
    };
    /** Damage seen since the last whole record: its seqs are known at the next one. */
    let pending: Omit<LostChange, 'seqs'>[] = [];
    /** The highest seq of a whole record read so far (or the snapshot's). */
    let lastSeen = snapshotSeq;
    const settlePending = (nextSeq: number | null) => {
      const missing = nextSeq === null ? [] : seqRange(lastSeen + 1, nextSeq - 1);
      if (pending.length === 0) {
        if (missing.length > 0)
          report.lost.push({
            seqs: missing,
            file: '(no file)',
            offset: 0,
            bytes: 0,
            why: 'missing from the journal (a segment is gone)',
            what: 'unknown',
          });
        return;
      }
      // Damage followed by a record the snapshot covers held nothing the snapshot lacks.
      if (nextSeq === null || nextSeq > snapshotSeq + 1)
        pending.forEach((damage, i) =>
          report.lost.push({ ...damage, seqs: i === 0 ? missing : [] }),
        );
      pending = [];
    };

    segments.forEach((segment, segmentIndex) => {
      const bytes = readFileSync(segment.path);
      const entries = readSegment(bytes);
      entries.forEach((entry, entryIndex) => {
        const file = basename(segment.path);
        if (!('record' in entry)) {
          const what = describeDamaged(bytes.subarray(entry.offset, entry.end));
          const isTail = segmentIndex === segments.length - 1 && entryIndex === entries.length - 1;
          if (isTail) {
            report.tornTail = {
              file,
              offset: entry.offset,
              bytes: entry.end - entry.offset,
              what,
              damaged: entry.reason !== CUT_SHORT,
            };
          } else {
            pending.push({
              file,
              offset: entry.offset,
              bytes: entry.end - entry.offset,
              why: entry.reason,
              what,
            });
          }
          return;
        }
        const { record } = entry;
        settlePending(record.seq);
        lastSeen = Math.max(lastSeen, record.seq);
        if (record.seq <= report.seq) return; // in the snapshot already (or a repeat)
        try {
          const changed = applyRecord(database, record, (sql, params) =>
            database.run(sql, bindable(params)),
          );
          record.ops.forEach(([index], i) => {
            const sql = record.sql[index] ?? '';
            if (report.lost.length > 0 && changed[i] === 0 && DML_THAT_FINDS_ROWS.test(sql))
              report.noEffect.push({
                seq: record.seq,
                what: describeRecord({
                  seq: record.seq,
                  sql: record.sql,
                  ops: [record.ops[i] ?? [index, []]],
                }),
              });
          });
          report.kept += 1;
          report.seq = record.seq;
          if (report.lost.length > 0) report.keptAfterLoss.push(record.seq);
        } catch (error) {
          report.lost.push({
            seqs: [record.seq],
            file,
            offset: entry.offset,
            bytes: entry.end - entry.offset,
            why: `it no longer replays: ${error instanceof Error ? error.message : String(error)}`,
            what: describeRecord(record),
          });
        }
      });
    });
    settlePending(null);

    const needsRepair =
      report.lost.length > 0 || report.tornTail !== null || report.snapshotDamage !== null;
    if (!needsRepair || dryRun) return report;

    // Copies first, then the new snapshot, then the removals: a crash anywhere leaves either the
    // old files or the new snapshot beside segments it covers, and a second run finishes.
    const backupDir = join(dataDir, `repair-${timestamp(options.now ?? new Date())}`);
    mkdirSync(backupDir, { mode: DIRECTORY_MODE });
    const indexPath = join(dataDir, INDEX_FILE);
    const originals = [
      ...(snapshot ? [join(dataDir, SNAPSHOT_FILE)] : []),
      ...segments.map((s) => s.path),
      ...(existsSync(indexPath) ? [indexPath] : []),
    ];
    for (const path of originals) copyFileSync(path, join(backupDir, basename(path)));
    report.backupDir = backupDir;
    report.changed = originals.map((path) => basename(path));
    if (!snapshot) report.changed.unshift(`${SNAPSHOT_FILE} (new)`);
    writeFileAtomic(join(backupDir, 'REPORT.txt'), formatRepairReport(report));
    fsyncDirectory(backupDir);
    const exported = database.export();
    writeFileAtomic(
      join(dataDir, SNAPSHOT_FILE),
      Buffer.concat([exported, snapshotTrailer(exported)]),
    );
    for (const path of originals) if (basename(path) !== SNAPSHOT_FILE) rmSync(path);
    fsyncDirectory(dataDir);
    return report;
  } finally {
    db?.close();
    // Repair does not make the last run's stop clean: a crash's lock stays for the service.
    lock.release({ keepFile: lock.tookOverStaleLock });
  }
}

function seqText(seqs: readonly number[]): string {
  if (seqs.length === 0) return 'seq unknown';
  if (seqs.length === 1) return `seq ${seqs[0]}`;
  return `seqs ${seqs[0]}–${seqs.at(-1)}`;
}

function ranges(seqs: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < seqs.length;) {
    let j = i;
    while (j + 1 < seqs.length && (seqs[j + 1] ?? 0) === (seqs[j] ?? 0) + 1) j++;
    out.push(i === j ? String(seqs[i]) : `${seqs[i]}–${seqs[j]}`);
    i = j + 1;
  }
  return out.join(', ');
}

/** The report as people read it (printed by the command and kept as REPORT.txt). */
export function formatRepairReport(report: RepairReport): string {
  const lines: string[] = [`KB Studio repair of ${report.dataDir}`];
  lines.push(
    `  snapshot ${SNAPSHOT_FILE} at seq ${report.snapshotSeq}${report.snapshotSeq === 0 ? ' (none yet)' : ''}; ${report.kept} journal record(s) after it replay`,
  );
  if (report.setAside.length > 0) {
    lines.push(
      '',
      'SET ASIDE: damaged last journal record(s) KB Studio cut when it started (not writes cut short by a crash: each may have been acknowledged), kept in these files:',
    );
    for (const aside of report.setAside) lines.push(`  - ${aside.file}: ${aside.what}`);
  }
  if (report.snapshotDamage) {
    const { reason, integrity } = report.snapshotDamage;
    lines.push(
      '',
      `DAMAGED SNAPSHOT: ${SNAPSHOT_FILE} does not check out (${reason}). SQLite's integrity check of what it holds: ${integrity}. A damaged byte in a row's text cannot be told from the text itself: check the robots' rules, or restore ${SNAPSHOT_FILE} from a backup. The repair writes it again as it reads now, with a new checksum.`,
    );
  }
  if (report.lost.length === 0 && !report.tornTail && !report.snapshotDamage) {
    lines.push('', 'Nothing to repair: every journal record is whole. Nothing was changed.');
    return `${lines.join('\n')}\n`;
  }
  if (report.lost.length > 0) {
    const count = report.lost.reduce((n, l) => n + Math.max(1, l.seqs.length), 0);
    lines.push('', `LOST: ${count} acknowledged change(s) cannot be recovered:`);
    for (const lost of report.lost) {
      const where =
        lost.bytes > 0
          ? `${lost.file}, bytes ${lost.offset}–${lost.offset + lost.bytes}`
          : lost.file;
      lines.push(`  - ${seqText(lost.seqs)} (${where}): ${lost.why}`);
      lines.push(`      ${lost.what}`);
    }
  } else {
    lines.push('', 'No acknowledged change is lost.');
  }
  if (report.tornTail) {
    const t = report.tornTail;
    lines.push(
      '',
      t.damaged
        ? `Cut: ${t.bytes} byte(s) at the end of ${t.file} (from byte ${t.offset}), a last record that is damaged, not cut short by a crash: it may have been acknowledged (its bytes are in the copy of ${t.file}):`
        : `Cut: ${t.bytes} byte(s) at the end of ${t.file} (from byte ${t.offset}), a write interrupted by a crash, which was never acknowledged:`,
      `      ${t.what}`,
    );
  }
  if (report.keptAfterLoss.length > 0)
    lines.push(
      '',
      `Kept after a lost change (applied without it): seq ${ranges(report.keptAfterLoss)}.`,
    );
  if (report.noEffect.length > 0) {
    lines.push('Of these, statements that changed nothing (they may have needed a lost change):');
    for (const n of report.noEffect) lines.push(`  - seq ${n.seq}: ${n.what}`);
  }
  lines.push('');
  if (report.dryRun) {
    lines.push(
      `Dry run: nothing was changed. The repaired database would be at seq ${report.seq}.`,
    );
  } else {
    lines.push(
      `The repaired database is at seq ${report.seq} (${SNAPSHOT_FILE}); the journal was folded into it.`,
      `Changed or removed: ${report.changed.join(', ')}. Copies of them as they were, and this report: ${report.backupDir}`,
      'Start KB Studio as usual.',
    );
  }
  return `${lines.join('\n')}\n`;
}
