/**
 * How both question logs write what they buffer: about once a second, one write at a time (a
 * flush asked for while one runs follows it), and once more when they close.
 * @module
 */
export class FlushSchedule {
  private tail: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly write: () => Promise<void>,
    everyMs = 1000,
  ) {
    this.timer = setInterval(() => void this.flush(), everyMs);
    this.timer.unref();
  }

  /** Writes what is buffered, after the writes under way. */
  flush(): Promise<void> {
    const run = this.tail.then(() => this.write());
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Waits for the writes under way (without starting one). */
  settled(): Promise<void> {
    return this.tail;
  }

  /** Stops the timer and writes what is left. */
  stop(): Promise<void> {
    clearInterval(this.timer);
    return this.flush();
  }
}
