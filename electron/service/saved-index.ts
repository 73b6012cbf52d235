/**
 * The robots' matching indexes as saved at a clean stop (`kb.index`, store/embedded/index-file.ts) and
 * opened at the next start (domain/robot-loading.ts).
 * @module
 */

/** One robot's saved index, as read back. */
export interface SavedRobotIndex {
  tenantId: number;
  robotId: string;
  /** Rules in the index when it was saved. */
  rules: number;
  /** The robot's highest rule position when it was saved (0: no rules): a cheap check. */
  maxSeq: number;
  /**
   * Absent: the robot's main index (its draft). `published`: the index of its latest version
   * (a robot in review mode), saved with that version's number.
   */
  edition?: 'published';
  /** The version a published index answers for. */
  version?: number;
  /** The engine's bytes: 8-byte aligned, a view on the file's buffer. */
  bytes: Uint8Array<ArrayBuffer>;
}

export interface SavedIndexFile {
  /** The store's position when the indexes were saved. */
  seq: number;
  robots: SavedRobotIndex[];
}

/** A robot to save: `write` streams its bytes once, when its turn to be written comes. */
export interface RobotIndexToSave extends Omit<SavedRobotIndex, 'bytes'> {
  write(sink: (chunk: Uint8Array) => void): void;
}

/*
 * One robot's index saved on its own (files/robot-index-files.ts), written when it is built or
 * let go of under a memory budget and read back when the robot is next asked
 * (domain/saved-robot-indexes.ts; docs/storage.md, "Saved indexes per robot").
 */

/** A robot's index file as read: its engine bytes, or why it cannot be used. */
export type RobotIndexFileRead =
  { ok: true; bytes: Uint8Array<ArrayBuffer>; rules: number } | { ok: false; reason: string };

/** The saved indexes a clean stop vouches for, and the robots most recently asked first. */
export interface RobotIndexManifest {
  /** The store's position at the stop: the files are exact only at that position. */
  position: number;
  /**
   * `changeCount`: the robot's change count in the store its index was read at (absent: not
   * known, the file holds only at `position`).
   */
  files: { key: string; token: string; changeCount?: number }[];
}

/** Where a node keeps one file per robot index (its data directory: a cache, never the truth). */
export interface RobotIndexFiles {
  /**
   * Writes the index of `key` durably, marked with `token` (what the file is checked against
   * when read back), from the engine's bytes in `chunks`.
   */
  write(key: string, token: string, rules: number, chunks: readonly Uint8Array[]): Promise<void>;
  /** Reads the file of `key` whole; usable only when whole, undamaged and of `token`. */
  read(key: string, token: string): Promise<RobotIndexFileRead>;
  remove(key: string): Promise<void>;
  /** Removes every index file (none of them can be vouched for) but those of `keep`'s keys. */
  clear(keep?: ReadonlySet<string>): Promise<void>;
  /** Reads the manifest of the last clean stop and removes it (it speaks for that stop only). */
  takeManifest(): Promise<RobotIndexManifest | null>;
  writeManifest(manifest: RobotIndexManifest): Promise<void>;
}
