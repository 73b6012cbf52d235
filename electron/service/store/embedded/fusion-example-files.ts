/**
 * The embedded store's fusion examples (store/contract/fusion-examples.ts): one small file per
 * robot under `fusion-examples/` in the data directory, written atomically (temporary file,
 * fsync, rename), as the saved index files are. At most ~1,000 examples a robot (a few hundred
 * kB compressed); a robot that changes its model overwrites its file.
 * @module
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DIRECTORY_MODE, writeFileAtomicAsync } from '../../files/durable-fs';
import type { FusionExampleStore } from '../contract/fusion-examples';
import type { RobotKey } from '../contract/records';

export const FUSION_EXAMPLES_DIR = 'fusion-examples';

export class FusionExampleFiles implements FusionExampleStore {
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, FUSION_EXAMPLES_DIR);
  }

  /** A robot id is the user's text: its digest names the file. */
  private pathOf(robot: RobotKey): string {
    const digest = createHash('sha256').update(robot.robotId).digest('hex').slice(0, 32);
    return join(this.dir, `${robot.tenantId}-${digest}.bin`);
  }

  async load(robot: RobotKey): Promise<Uint8Array | null> {
    try {
      return await readFile(this.pathOf(robot));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async save(robot: RobotKey, bytes: Uint8Array): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: DIRECTORY_MODE });
    await writeFileAtomicAsync(this.pathOf(robot), bytes);
  }
}
