/**
 * Publishing a robot's draft as a numbered version (behind the test-set gate), rolling back to
 * an old version (a new version with its content), version history, diffs and a version's rules.
 * Every write runs in the robot's write queue and is one store transaction: a crash leaves the
 * old version or the new one, never a mix.
 * @module
 */
import type {
  DiscardResult,
  GateReport,
  PublishMode,
  RulesDiff,
  UnpublishedChanges,
  VersionHistory,
} from '../publishing-types';
import type { DomainContext } from '../domain/context';
import { robotKey } from '../domain/robot-directory';
import type { Robot } from '../domain/robot-directory';
import { changeRules } from '../domain/rule-changes';
import { ServiceError } from '../errors';
import type { VersionRecord } from '../store/contract/versions';
import type { PublishedEditions } from './published-editions';
import { diffRules } from './rule-diff';
import { askAll, meets } from './test-runs';
import { rulesOf, withTargetIndex } from './targets';
import type { Target } from './targets';

export { rulesOf };

export interface PublishInput {
  note: string;
  /** The administrator chosen in the editor, or `api`. */
  author: string;
  /** Publish even though test cases that pass now would fail. */
  confirmFailures?: boolean;
  /** Publish even though more customers' questions change answer than the impact gate allows. */
  confirmImpact?: boolean;
}

/** A further check before a publish, in the robot's write queue (impact.ts): throws to refuse. */
export type PublishCheck = (robot: Robot) => Promise<void>;

/** Runs the test set against the draft and the published version (if there is one). */
export async function checkGate(ctx: DomainContext, robot: Robot): Promise<GateReport> {
  const cases = await ctx.store.testSets.cases(robot);
  const report: GateReport = { cases: cases.length, failing: 0, nowFailing: [], nowPassing: [] };
  if (cases.length === 0) return report;
  const at = ctx.now();
  const askTarget = (target: Target) =>
    withTargetIndex(ctx, robot, target, (held) => askAll(held, cases, robot.settings, at));
  const draft = await askTarget('draft');
  const hasPublished = (await ctx.store.versions.latest(robot)) !== undefined;
  const published = hasPublished ? await askTarget('published') : null;
  draft.forEach(({ test, decision }, i) => {
    const passes = meets(test, decision);
    if (!passes) report.failing++;
    const before = published
      ? meets(test, (published[i] as (typeof published)[number]).decision)
      : true;
    const brief = { caseId: test.caseId, question: test.question };
    if (before && !passes) report.nowFailing.push(brief);
    if (!before && passes) report.nowPassing.push(brief);
  });
  return report;
}

/** Publishes the draft now, inside the robot's write queue (the caller holds it). */
export async function publishInQueue(
  ctx: DomainContext,
  editions: PublishedEditions,
  robot: Robot,
  request: {
    note: string;
    author: string;
    confirmedFailures: string | null;
    modeSwitch?: PublishMode;
  },
): Promise<VersionRecord> {
  const change = await ctx.store.versions.publish(robot, { ...request, now: ctx.now() });
  if (!change) {
    throw new ServiceError('nothing-to-publish', 'The draft is the same as the latest version.');
  }
  editions.follow(robot, change);
  return change.version;
}

/**
 * Publishes the draft as a new version. The gate runs in the robot's write queue, so that what
 * is published is exactly what was checked; new failures refuse the publish unless confirmed,
 * and a confirmation is recorded on the version.
 */
export function publish(
  ctx: DomainContext,
  editions: PublishedEditions,
  robot: Robot,
  input: PublishInput,
  impactCheck: PublishCheck | null = null,
): Promise<{ version: VersionRecord; gate: GateReport }> {
  return ctx.writes.run(robotKey(robot), async () => {
    // An unchanged draft is refused by the publish itself (one pass over the rules, not two).
    const gate = await checkGate(ctx, robot);
    if (gate.nowFailing.length > 0 && !input.confirmFailures) {
      throw new ServiceError(
        'publish-blocked',
        `${gate.nowFailing.length} test case(s) that pass now would fail: confirm to publish anyway.`,
        'confirmFailures',
      );
    }
    if (!input.confirmImpact) await impactCheck?.(robot);
    const confirmedFailures =
      gate.nowFailing.length > 0 ? JSON.stringify(gate.nowFailing.map((c) => c.caseId)) : null;
    const version = await publishInQueue(ctx, editions, robot, {
      note: input.note,
      author: input.author,
      confirmedFailures,
    });
    return { version, gate };
  });
}

/**
 * Rolls back to `version`: the draft takes its content (draft rules not in it go to the trash,
 * where they can be restored) and it is published as a new version.
 */
export function rollback(
  ctx: DomainContext,
  editions: PublishedEditions,
  robot: Robot,
  version: number,
  input: { note: string; author: string },
  actor: string,
): Promise<VersionRecord> {
  return changeRules(ctx, robot, actor, async (actor) => {
    const done = await ctx.store.versions.rollback(
      robot,
      version,
      {
        note: input.note,
        author: input.author,
        now: ctx.now(),
        confirmedFailures: null,
      },
      actor,
    );
    if (!done) throw new ServiceError('version-not-found', `Version ${version} does not exist.`);
    editions.follow(robot, done.published);
    return {
      change: { added: done.draft.added, removed: done.draft.removed },
      result: done.published.version,
    };
  });
}

/**
 * Makes the draft the latest version again, writing no version: the rules added or changed
 * since go to the trash (where they can be restored), the ones changed or removed come back.
 * `nothing-to-discard` when the draft is the latest version (or there is none).
 */
export function discardDraft(
  ctx: DomainContext,
  robot: Robot,
  actor: string,
): Promise<DiscardResult> {
  return changeRules(ctx, robot, actor, async (actor) => {
    const unchanged = () =>
      new ServiceError('nothing-to-discard', 'The draft is the same as the latest version.');
    // Checked in the robot's queue, so that no edit comes between the check and the reset.
    if (!(await ctx.store.versions.draftDiffers(robot))) throw unchanged();
    const reset = await ctx.store.versions.discardDraft(robot, ctx.now(), actor);
    if (!reset) throw unchanged();
    return {
      change: { added: reset.added, removed: reset.removed },
      result: { removed: reset.removed.length, restored: reset.added.length },
    };
  });
}

/** Unpublished changes listed at most: the grid marks these, the sidebar counts them. */
export const UNPUBLISHED_MAX = 5000;

/** What publishing the draft (or discarding it) would change, rule by rule. */
export async function unpublished(ctx: DomainContext, robot: Robot): Promise<UnpublishedChanges> {
  const [latest, { changes, more }] = await Promise.all([
    ctx.store.versions.latest(robot),
    ctx.store.versions.unpublished(robot, UNPUBLISHED_MAX),
  ]);
  return {
    publishMode: robot.settings.publishMode,
    latest: latest?.version ?? null,
    changes,
    more,
  };
}

export async function diff(
  ctx: DomainContext,
  robot: Robot,
  from: Target,
  to: Target,
): Promise<RulesDiff> {
  return diffRules(await rulesOf(ctx, robot, from), await rulesOf(ctx, robot, to));
}

export async function history(ctx: DomainContext, robot: Robot): Promise<VersionHistory> {
  return {
    publishMode: robot.settings.publishMode,
    draftChanged: await ctx.store.versions.draftDiffers(robot),
    versions: await ctx.store.versions.list(robot),
  };
}
