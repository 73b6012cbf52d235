/**
 * The embedded store's failed sign-ins (statements: sql/sessions.ts). The contract
 * (store/contract/sessions.ts) states what each method returns.
 * @module
 */
import type { SignInFailureRepository } from '../../contract/sessions';
import { sqlite } from '../../sql/dialect';
import * as sessions from '../../sql/sessions';
import type { Store } from '../database';

const FAILURES = sessions.failureStatements(sqlite);

export class SqlJsSignInFailureRepository implements SignInFailureRepository {
  constructor(private readonly store: Store) {}

  async record(subjects: readonly string[], at: number, forgetBefore: number) {
    this.store.write((tx) => {
      for (const subject of subjects) {
        tx.run(FAILURES.forget, [subject, forgetBefore]);
        tx.run(FAILURES.record, [subject, at]);
      }
    });
  }

  async since(subject: string, since: number) {
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
}
