/**
 * The team server's sign-in attempts (statements: sql/sessions.ts). Every node reads them from
 * the database: an attempt refused on one node counts on the others. A reservation takes an
 * advisory lock per subject for its transaction (in one order, so two never wait on each other),
 * so that attempts made at once on any nodes are counted one after the other. The contract
 * (store/contract/sessions.ts) states what each method returns.
 * @module
 */
import type { Attempt, AttemptDecision, SignInFailureRepository } from '../../contract/sessions';
import { postgres } from '../../sql/dialect';
import * as sessions from '../../sql/sessions';
import type { Database } from '../database';

const FAILURES = sessions.failureStatements(postgres);

/**
 * The lock of one subject: the two-key form, whose space does not overlap the one-key locks of
 * migrations and publishing; 0x5349 ("SI") names sign-in. A hash collision only makes two
 * subjects wait on each other.
 */
const LOCK_SUBJECT = 'SELECT pg_advisory_xact_lock(21321, hashtext($1))';

export class PostgresSignInFailureRepository implements SignInFailureRepository {
  constructor(private readonly db: Database) {}

  async reserve<T>(
    attempt: Attempt,
    subjects: readonly string[],
    decide: (failures: ReadonlyMap<string, readonly number[]>) => AttemptDecision<T>,
  ) {
    return this.db.write(async (tx) => {
      const ordered = [...new Set(subjects)].sort();
      for (const subject of ordered) await tx.get(LOCK_SUBJECT, [subject]);
      const failures = new Map<string, number[]>();
      for (const subject of ordered) {
        const rows = await tx.all<{ failed_at: number }>(FAILURES.since, [subject, attempt.since]);
        failures.set(
          subject,
          rows.map((row) => Number(row.failed_at)),
        );
      }
      const decision = decide(failures);
      for (const subject of decision.record) {
        await tx.run(FAILURES.record, [subject, attempt.at, attempt.id]);
      }
      return decision.result;
    });
  }

  async release(attempt: string, subjects: readonly string[]) {
    if (subjects.length === 0) return;
    await this.db.write(async (tx) => {
      for (const subject of subjects) await tx.run(FAILURES.release, [attempt, subject]);
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

  async isKnownClient(account: string, address: string, since: number) {
    return (await this.db.get(FAILURES.known, [account, address, since])) !== undefined;
  }

  async rememberClient(account: string, address: string, at: number) {
    await this.db.write((tx) => tx.run(FAILURES.remember, [account, address, at]));
  }

  async forgetClients(before: number) {
    if (!(await this.db.get(FAILURES.anyClientForgotten, [before]))) return 0;
    return this.db.write((tx) => tx.run(FAILURES.purgeClients, [before]));
  }
}
