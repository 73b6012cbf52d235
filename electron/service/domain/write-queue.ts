/**
 * How writes are ordered once a store answers asynchronously: the writes of one robot run one at
 * a time, in the order they arrived, each with the update of the robot's in-memory state that
 * follows it (matching index, rule order, caches) before the next starts. So the in-memory state
 * of a robot always follows its writes in commit order, whatever the store; writes of different
 * robots, and reads, do not wait for each other. See docs/architecture.md.
 * @module
 */

export class WriteQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `work` after every earlier work of the same key has settled. */
  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }

  /** Whether a work of `key` is queued or running. */
  busy(key: string): boolean {
    return this.tails.has(key);
  }

  /** Resolves once every queued work has settled (a stop waits for it before saving state). */
  async idle(): Promise<void> {
    while (this.tails.size > 0) await Promise.all(this.tails.values());
  }
}
