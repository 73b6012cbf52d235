/**
 * Robots' indexes saved one file per robot under a memory budget (docs/storage.md, "Saved
 * indexes per robot"), so that a robot not in memory is opened from its file when next asked
 * instead of being rebuilt from its rules. A file is written when an index is built or let go
 * of, in slices between turns of the event loop, and is used only while nothing was written to
 * its robot since: each file carries a token, and any write to the robot (robot-indexes.ts
 * tells of every one, on either store, followed changes included) forgets the token. Tokens
 * outlive the process only through the manifest of a clean stop, taken at the next start whole
 * when the store is still at the position of that stop, else file by file: a file whose robot's
 * change count in the store (migration 0010) is still the one its index was read at. A file written before the index's
 * self-test had calibrated it is written again, under the same token, once it has (when the
 * index is let go of, or at a stop): opened from it, the robot needs no self-test of its own.
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from '../logger';
import type { RobotIndex } from '../matching/types';
import type { RobotIndexFiles, RobotIndexManifest } from '../saved-index';

/** How an index is written in slices and opened from its bytes (the engine's). */
export interface SlicedIndexCodec {
  write(index: RobotIndex, sink: (chunk: Uint8Array) => void): Promise<number>;
  /** Null: saved by an engine that indexes differently. Throws on damaged bytes. */
  load(bytes: Uint8Array<ArrayBuffer>): RobotIndex | null;
}

export class SavedRobotIndexes {
  /**
   * Robots whose file is exact now: the token it was written with, and whether it holds a
   * calibration of its rules (true when unknown: a file of an earlier run).
   */
  private readonly exact = new Map<
    string,
    { token: string; calibrated: boolean; changeCount: number | undefined }
  >();
  /**
   * The store's change count of each robot its index is known to be exact at: read before its
   * rules were (an earlier count only refuses a file wrongly, never takes one), forgotten at
   * any write (a write's own count is not known here).
   */
  private readonly counts = new Map<string, number>();
  /** Writes to each robot since the start: a save under way checks it did not move. */
  private readonly changes = new Map<string, number>();
  private readonly run = randomBytes(6).toString('hex');
  private written = 0;
  /** Saves one at a time, in the order asked (the memory of one index's bytes at most). */
  private queue: Promise<void> = Promise.resolve();
  private readonly saving = new Set<string>();

  constructor(
    private readonly files: RobotIndexFiles,
    private readonly codec: SlicedIndexCodec,
    private readonly logger: Logger,
  ) {}

  /** A write reached the robot of `key` (or its index was replaced): its file no longer holds. */
  changed(key: string): void {
    this.changes.set(key, (this.changes.get(key) ?? 0) + 1);
    this.counts.delete(key);
    if (this.exact.delete(key)) {
      this.files.remove(key).catch((error: unknown) => {
        this.logger.warn(`could not remove the saved index of robot ${key}: ${String(error)}`);
      });
    }
  }

  /**
   * The robot's change count in the store, read before its rules are read for a build: the
   * count its next save records, unless a write reaches the robot first.
   */
  counted(key: string, changeCount: number): void {
    this.counts.set(key, changeCount);
  }

  /** Whether the robot has a file exact now. */
  has(key: string): boolean {
    return this.exact.has(key);
  }

  /**
   * Saves the index of `key` in the background unless its file is exact already (and holds the
   * calibration, or the index has none newer). The index must be one no write reaches any more
   * (let go of) or one whose writes the save can see (`version`): a save that saw the robot
   * change is dropped.
   */
  save(key: string, index: RobotIndex): void {
    const file = this.exact.get(key);
    if (file && (file.calibrated || !calibrated(index))) return;
    if (this.saving.has(key)) return;
    this.saving.add(key);
    // As of now: a write to the robot before the save's turn comes makes it stale already.
    const changes = this.changes.get(key) ?? 0;
    const version = index.version;
    const changeCount = this.counts.get(key);
    this.queue = this.queue
      .then(() => this.write(key, index, changes, version, changeCount))
      .catch((error: unknown) => {
        this.logger.warn(`could not save the index of robot ${key}: ${String(error)}`);
      })
      .finally(() => this.saving.delete(key));
  }

  private async write(
    key: string,
    index: RobotIndex,
    changes: number,
    version: number | undefined,
    changeCount: number | undefined,
  ): Promise<void> {
    const unchanged = () => (this.changes.get(key) ?? 0) === changes && index.version === version;
    if (!unchanged()) return;
    const chunks: Uint8Array[] = [];
    // As of the snapshot's start (a calibration done during the write is caught next time).
    const withCalibration = calibrated(index);
    // Views on the index's arrays: they stay valid while it does not change.
    await this.codec.write(index, (chunk) => chunks.push(chunk));
    if (!unchanged()) return;
    // A file exact already is rewritten under its token: a read meanwhile finds either whole.
    const token = this.exact.get(key)?.token ?? `${this.run}.${++this.written}`;
    await this.files.write(key, token, index.size, chunks);
    if (unchanged()) this.exact.set(key, { token, calibrated: withCalibration, changeCount });
  }

  /**
   * The index of `key` opened from its file; null when it has none exact (or it cannot be
   * used: the reason is logged, and the index is built from the rules instead).
   */
  async open(key: string): Promise<RobotIndex | null> {
    const token = this.exact.get(key)?.token;
    if (token === undefined) return null;
    const read = await this.files.read(key, token).catch((error: unknown) => ({
      ok: false as const,
      reason: String(error),
    }));
    let index: RobotIndex | null = null;
    let reason = read.ok ? '' : read.reason;
    if (read.ok) {
      try {
        index = this.codec.load(read.bytes);
        if (index === null) reason = 'made by another matching engine';
        else if (index.size !== read.rules) {
          reason = `holds ${index.size} rules, not ${read.rules}`;
          index = null;
        }
      } catch (error) {
        reason = `damaged (${(error as Error).message})`;
      }
    }
    const file = this.exact.get(key);
    if (index === null) {
      this.logger.warn(`the saved index of robot ${key} is not used (${reason}): rebuilding it`);
      if (file?.token === token) this.changed(key);
    } else if (file?.token === token) {
      file.calibrated = calibrated(index);
    }
    return index;
  }

  /** Settles the saves under way. */
  async idle(): Promise<void> {
    for (let queue = this.queue; ; queue = this.queue) {
      await queue;
      if (queue === this.queue) return;
    }
  }

  /**
   * At a start: takes the files the last clean stop vouched for, every one when the store is
   * still at its position; else those whose robot's change count (`changeCount`: null, no such
   * robot) is still the one the file recorded (a team server's other nodes wrote to other
   * robots meanwhile, or a robot's rules were written to by none), and removes the others.
   * Returns the robots of the files taken, most recently asked first (the warm-up's order).
   */
  async adopt(
    position: number,
    changeCount: (key: string) => Promise<number | null>,
  ): Promise<string[]> {
    let taken: RobotIndexManifest['files'];
    try {
      const manifest = await this.files.takeManifest();
      if (!manifest) {
        await this.files.clear();
        return [];
      }
      taken = manifest.files;
      if (manifest.position !== position) {
        taken = [];
        for (const file of manifest.files) {
          if (file.changeCount !== undefined && (await changeCount(file.key)) === file.changeCount)
            taken.push(file);
        }
        this.logger.info(
          `the saved indexes are of position ${manifest.position}, the store is at ${position}: ` +
            `${taken.length} of ${manifest.files.length} kept (their robots unchanged), the others rebuilt when asked`,
        );
        await this.files.clear(new Set(taken.map((file) => file.key)));
      }
    } catch (error) {
      this.logger.warn(`could not read the saved indexes: ${String(error)}`);
      return [];
    }
    for (const { key, token, changeCount } of taken) {
      this.exact.set(key, { token, calibrated: true, changeCount });
      if (changeCount !== undefined) this.counts.set(key, changeCount);
    }
    return taken.map((file) => file.key);
  }

  /**
   * At a clean stop, every write settled: saves the indexes in memory whose file is not exact,
   * then the manifest of the files exact at `position()`, `recent` (most recently asked first)
   * in front.
   */
  async stop(
    loaded: readonly { key: string; index: RobotIndex }[],
    recent: readonly string[],
    position: () => number,
  ): Promise<void> {
    for (const { key, index } of loaded) this.save(key, index);
    await this.idle();
    const order = [...new Set([...recent, ...this.exact.keys()])].filter((key) =>
      this.exact.has(key),
    );
    const files = order.flatMap((key) => {
      const file = this.exact.get(key);
      if (!file) return [];
      const { token, changeCount } = file;
      return [changeCount === undefined ? { key, token } : { key, token, changeCount }];
    });
    try {
      await this.files.writeManifest({ position: position(), files });
    } catch (error) {
      this.logger.warn(`could not keep the saved indexes for the next start: ${String(error)}`);
    }
  }
}

/** Whether the index's calibration was fitted on its rules as they are (an engine without one: yes). */
const calibrated = (index: RobotIndex): boolean => index.calibration?.current ?? true;
