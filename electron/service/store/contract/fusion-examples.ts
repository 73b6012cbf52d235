/**
 * The fusion's examples from a robot's traffic (matching/fusion-traffic.ts), kept across restarts
 * (decision 150): one opaque record per robot, replaced whole (embedding/fusion-example-codec.ts
 * writes and reads it, and says which model it is of). Not knowledge, as the vector cache is not:
 * no position, no change feed, and losing it only starts the warm-up again.
 * @module
 */
import type { RobotKey } from './records';

export interface FusionExampleStore {
  /** The robot's saved examples, or null. */
  load(robot: RobotKey): Promise<Uint8Array | null>;
  /** Replaces the robot's saved examples. */
  save(robot: RobotKey, bytes: Uint8Array): Promise<void>;
}
