/**
 * The team server's failed sign-ins (statements: sql/sessions.ts). Every node reads them from the
 * database: a sign-in refused on one node counts on the others. The contract
 * (store/contract/sessions.ts) states what each method returns.
 * @module
 */
import type { SignInFailureRepository } from '../../contract/sessions';
import { postgres } from '../../sql/dialect';
import * as sessions from '../../sql/sessions';
import type { Database } from '../database';

const FAILURES = sessions.failureStatements(postgres);

export class PostgresSignInFailureRepository implements SignInFailureRepository {
  constructor(private readonly db: Database) {}

  async record(subjects: readonly string[], at: number, forgetBefore: number) {
    await this.db.write(async (tx) => {
      for (const subject of subjects) {
        await tx.run(FAILURES.forget, [subject, forgetBefore]);
        await tx.run(FAILURES.record, [subject, at]);
      }
    });
  }

  async since(subject: string, since: number) {
    const rows = await this.db.all<{ failed_at: number }>(FAILURES.since, [subject, since]);
    return rows.map((row) => Number(row.failed_at));
  }

  async clear(subject: string) {
    if (await this.db.get(FAILURES.any, [subject])) {
      await this.db.write((tx) => tx.run(FAILURES.clear, [subject]));
    }
  }

  async purge(before: number) {
    if (!(await this.db.get(FAILURES.anyForgotten, [before]))) return 0;
    return this.db.write((tx) => tx.run(FAILURES.purge, [before]));
  }
}
