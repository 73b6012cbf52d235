/**
 * The embedded store's sign-in attempts (statements: sql/sessions.ts). The contract
 * (store/contract/sessions.ts) states what each method returns. One process holds the store and
 * each method runs its statements without yielding (`reserve` reads, decides and writes in one
 * turn of the event loop), so parallel attempts are counted one after the other.
 * @module
 */
import type { Attempt, AttemptDecision, SignInFailureRepository } from '../../contract/sessions';
import { sqlite } from '../../sql/dialect';
import * as sessions from '../../sql/sessions';
import type { Store } from '../database';

const FAILURES = sessions.failureStatements(sqlite);

export class SqlJsSignInFailureRepository implements SignInFailureRepository {
  constructor(private readonly store: Store) {}

  async reserve<T>(
    attempt: Attempt,
    subjects: readonly string[],
    decide: (failures: ReadonlyMap<string, readonly number[]>) => AttemptDecision<T>,
  ) {
    const failures = new Map(
      subjects.map((subject) => [subject, this.read(subject, attempt.since)]),
    );
    const decision = decide(failures);
    if (decision.record.length > 0) {
      this.store.write((tx) => {
        for (const subject of decision.record) {
          tx.run(FAILURES.record, [subject, attempt.at, attempt.id]);
        }
      });
    }
    return decision.result;
  }

  async release(attempt: string, subjects: readonly string[]) {
    if (subjects.length === 0) return;
    this.store.write((tx) => {
      for (const subject of subjects) tx.run(FAILURES.release, [attempt, subject]);
    });
  }

  async since(subject: string, since: number) {
    return this.read(subject, since);
  }

  private read(subject: string, since: number): number[] {
    const rows = this.store.all<{ failed_at: number }>(FAILURES.since, [subject, since]);
    return rows.map((row) => Number(row.failed_at));
  }

  async clear(subject: string) {
    if (this.store.get(FAILURES.any, [subject])) {
      this.store.write((tx) => tx.run(FAILURES.clear, [subject]));
    }
  }

  async purge(before: number) {
    if (!this.store.get(FAILURES.anyForgotten, [before])) return 0;
    return this.store.write((tx) => tx.run(FAILURES.purge, [before]));
  }

  async isKnownClient(account: string, address: string, since: number) {
    return this.store.get(FAILURES.known, [account, address, since]) !== undefined;
  }

  async rememberClient(account: string, address: string, at: number) {
    this.store.write((tx) => tx.run(FAILURES.remember, [account, address, at]));
  }

  async forgetClients(before: number) {
    if (!this.store.get(FAILURES.anyClientForgotten, [before])) return 0;
    return this.store.write((tx) => tx.run(FAILURES.purgeClients, [before]));
  }
}
