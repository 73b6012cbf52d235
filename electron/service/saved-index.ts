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
