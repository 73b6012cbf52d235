/**
 * The rules' facts (id, name, window end) whole rule analytics lists, kept per robot while the
 * store has no new write (decision 168). Reading a robot's 10k rules' facts from sql.js cost
 * ~100 ms of CPU at every read, whatever the log's size: on this machine under load, most of
 * the read's wall time. The store's `position` grows with every committed write (a rename, a
 * window set, a rule added or deleted, or anything else), and a read at another position reads
 * the facts again.
 * @module
 */
import type { RuleFacts } from '../store/contract/records';

/** Robots whose facts are kept (least recently read let go first). */
const ROBOTS_KEPT = 4;

export class RuleFactsCache {
  private readonly robots = new Map<
    string,
    { position: number; facts: Promise<readonly RuleFacts[]> }
  >();

  /**
   * The robot's facts as read at `position` (taken before the read: a write committed while
   * they are read makes the next read read them again).
   */
  of(
    robot: string,
    position: number,
    read: () => Promise<readonly RuleFacts[]>,
  ): Promise<readonly RuleFacts[]> {
    const kept = this.robots.get(robot);
    this.robots.delete(robot);
    if (kept && kept.position === position) {
      this.robots.set(robot, kept);
      return kept.facts;
    }
    const facts = read();
    // A failed read is not kept.
    facts.catch(() => {
      if (this.robots.get(robot)?.facts === facts) this.robots.delete(robot);
    });
    this.robots.set(robot, { position, facts });
    for (const key of this.robots.keys()) {
      if (this.robots.size <= ROBOTS_KEPT) break;
      this.robots.delete(key);
    }
    return facts;
  }
}
