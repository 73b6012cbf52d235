/**
 * The embedded backend: the sql.js store of the data directory, its question log in day files
 * and its matching indexes kept in `kb.index` from a clean stop to the next start.
 * @module
 */
import type { ServiceConfig } from '../config';
import type { IndexCodec, IndexSavePlan, SavedIndexes } from '../domain/robot-loading';
import type { Logger } from '../logger';
import { loadRobotIndex, normalizeText, writeRobotIndex } from '../matching/index';
import { EmbeddedStore } from '../store/embedded/embedded-store';
import {
  discardIndexFile,
  putBackIndexFile,
  readIndexFile,
  setAsideIndexFile,
  writeIndexFile,
} from '../store/embedded/index-file';
import { DayFileLog } from '../store/embedded/question-log/day-file-log';
import type { Backend } from './backend';

/** Saves the indexes of a plan for the next start; a failure only costs the next start time. */
function saveIndexes(plan: IndexSavePlan | null, dataDir: string, logger: Logger): void {
  if (!plan) return;
  try {
    writeIndexFile(dataDir, plan.seq, plan.robots);
  } catch (error) {
    logger.error('could not save the matching indexes; the next start rebuilds them', error);
  }
}

export async function openEmbedded(config: ServiceConfig): Promise<Backend> {
  const { dataDir, logger } = config;
  // A stand-in index (tests, benchmarks) is always built from the database.
  const codec: IndexCodec | null = config.createIndex
    ? null
    : { write: writeRobotIndex, load: loadRobotIndex };
  let reading: Promise<SavedIndexes> = Promise.resolve({ file: null });
  // The store opens while sql.js compiles its WebAssembly and the snapshot and the saved indexes
  // are read on other threads.
  const store = await EmbeddedStore.open({
    dataDir,
    logger,
    // Rules are searched as the matcher reads text (case, width, Traditional/Simplified).
    textKey: normalizeText,
    snapshotJournalBytes: config.snapshotJournalBytes,
    snapshotIdleMs: config.snapshotIdleMs,
    onLocked: () => {
      if (codec) {
        reading = readIndexFile(dataDir, config.memoryBudget ?? Infinity).then(
          (file) => ({ file }),
          (error: unknown) => ({ error: error as Error }),
        );
      }
    },
  });
  let aside: string | null;
  const saved = await reading;
  try {
    // The index file speaks only for the state it was saved in: once read, it is set aside.
    aside = setAsideIndexFile(dataDir);
  } catch (error) {
    await store.close();
    throw error;
  }
  return {
    store,
    indexes: { codec, saved },
    uncleanStop: store.recoveredFromUncleanStop,
    sharedSignatures: null,
    // The store is in this process and there are no other nodes: ready while it runs.
    vitals: { notReady: async () => null, pool: () => null, feedLagSeconds: () => null },
    questionLog: async () => new DayFileLog({ dataDir, logger, now: config.now }),
    follow: async () => undefined,
    stopFollowing: async () => undefined,
    async close(indexes) {
      // When nothing was written since the start, the file the indexes were opened from is
      // simply put back; else the new ones are written once the database is closed, so that
      // the memory of their saving does not add to the database's.
      const reuse = indexes === 'unchanged' ? aside : null;
      if (aside !== null && reuse === null) discardIndexFile(aside);
      await store.close({
        beforeRelease: () => {
          if (reuse !== null) putBackIndexFile(dataDir, reuse);
          else if (indexes !== 'unchanged') saveIndexes(indexes, dataDir, logger);
        },
      });
    },
    abort: () => store.close(),
  };
}
