/**
 * The service with a stand-in matching index, run as a child process by the benchmarks to measure
 * the service's own costs (HTTP, signatures, validation, storage, the read of the answer) apart
 * from the engine's: `node --import tsx tests/bench/stand-in-service.ts --data DIR`. Prints
 * `listening on URL` like `npm run serve`, stops on SIGTERM.
 *
 * The stand-in holds rule ids only. It answers every question with a BESTMATCH on one of them
 * (chosen by a hash of the question, so that answers are read from all over the table), so an
 * ask does all the work of a real one except the matching itself.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startService } from '../../electron/service/index';
import { silentLogger } from '../../electron/service/logger';
import type {
  MatchDecision,
  MatchableRule,
  RobotIndex,
} from '../../electron/service/matching/types';

export class StandInIndex implements RobotIndex {
  private readonly ids: string[] = [];
  private readonly slots = new Map<string, number>();

  get size(): number {
    return this.slots.size;
  }

  upsert(rule: MatchableRule): void {
    if (this.slots.has(rule.ruleId)) return;
    this.slots.set(rule.ruleId, this.ids.push(rule.ruleId) - 1);
  }

  remove(ruleId: string): void {
    const slot = this.slots.get(ruleId);
    if (slot === undefined) return;
    const last = this.ids.pop() as string;
    if (last !== ruleId) {
      this.ids[slot] = last;
      this.slots.set(last, slot);
    }
    this.slots.delete(ruleId);
  }

  match(question: string): MatchDecision {
    if (this.ids.length === 0) return { kind: 'none', candidates: [] };
    let hash = 0;
    for (let i = 0; i < question.length; i++) hash = (hash * 31 + question.charCodeAt(i)) >>> 0;
    const top = {
      ruleId: this.ids[hash % this.ids.length] as string,
      question,
      score: 0.95,
      parts: {},
    };
    return { kind: 'bestmatch', top, candidates: [top] };
  }

  /** Nothing to work out ahead: `match` is a hash. */
  prepare(): void {}
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { data: { type: 'string' }, port: { type: 'string', default: '0' } },
  });
  if (!values.data) throw new Error('--data is required');
  const service = await startService({
    dataDir: resolve(values.data),
    port: Number(values.port),
    logger: silentLogger,
    createIndex: () => new StandInIndex(),
  });
  process.on('SIGTERM', () => {
    service.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  console.log(`listening on ${service.url}`);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
