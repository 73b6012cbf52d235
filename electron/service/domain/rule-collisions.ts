/**
 * The editor's collision check: phrasings that the robot answers with another rule (checked by
 * asking them on the draft with the robot's settings), and the risks the self-test sees (a
 * phrasing that reads like another rule, two rules that are probably the same question), named
 * as the editor shows them.
 * @module
 */
import type { RobotCollisions } from '../console-types';
import type { RobotIndex } from '../matching/types';
import type { DomainContext } from './context';
import type { Robot } from './robot-directory';
import { indexKey, indexOf } from './robot-loading';

interface RobotChecks {
  /** The check under way: a second request while it runs waits for the same one. */
  running?: Promise<RobotCollisions>;
  /** Rules named by the last finished check (the rules list's `conflicts` filter). */
  lastRuleIds?: string[];
  /** The last finished check and the state of the index it read. */
  last?: { report: RobotCollisions } & IndexState;
}

/** What a report depends on: the index (object, version), the time window, how ask decides. */
interface IndexState {
  index: number;
  version: number;
  window: TimeWindow;
  /** The robot's decision settings and calibration offset: the checks ask with them. */
  decision: string;
}

interface TimeWindow {
  after: number;
  before: number;
}

/**
 * A number per index object: a robot's index may be replaced (rebuilt, restored from the
 * trash) and the new one starts again at version 0; the last report must not hold the old one.
 */
const indexNumbers = new WeakMap<RobotIndex, number>();
let indexCount = 0;

function indexNumber(index: RobotIndex): number {
  let number = indexNumbers.get(index);
  if (number === undefined) indexNumbers.set(index, (number = ++indexCount));
  return number;
}

/** The index's state that a report depends on; undefined if the engine does not tell it. */
function indexState(index: RobotIndex, robot: Robot, nowMs: number): IndexState | undefined {
  if (index.version === undefined || index.eligibilityWindow === undefined) return undefined;
  const { bestmatchThreshold, recommendThreshold, margin, maxRecommend } = robot.settings;
  return {
    index: indexNumber(index),
    version: index.version,
    window: index.eligibilityWindow(nowMs),
    decision: JSON.stringify([
      bestmatchThreshold,
      recommendThreshold,
      margin,
      maxRecommend,
      index.calibration?.offset ?? 0,
    ]),
  };
}

/** Per service (its domain context), per robot. */
const checks = new WeakMap<DomainContext, Map<string, RobotChecks>>();

function checksOf(ctx: DomainContext, robot: Robot): RobotChecks {
  let robots = checks.get(ctx);
  if (!robots) checks.set(ctx, (robots = new Map()));
  const key = indexKey(robot);
  let entry = robots.get(key);
  if (!entry) robots.set(key, (entry = {}));
  return entry;
}

/**
 * The robot's collision check; requests made while one runs share it. The last report is given
 * again (`reused`) while the index is at the version it read and no rule entered or left its
 * effective window since: opening the rules view costs nothing then (the check of 5,000
 * phrasings takes seconds at 100k rules). What it names is kept as the rules list's `conflicts`
 * filter, so that the grid's markers and that filter agree.
 */
export async function ruleCollisions(ctx: DomainContext, robot: Robot): Promise<RobotCollisions> {
  // Loaded first when a budget keeps it out of memory (robot-indexes.ts).
  const index = await indexOf(ctx, robot);
  const entry = checksOf(ctx, robot);
  if (entry.running) return entry.running;
  const nowMs = ctx.now();
  const state = indexState(index, robot, nowMs);
  const last = entry.last;
  if (
    last &&
    state &&
    last.index === state.index &&
    last.version === state.version &&
    last.decision === state.decision &&
    nowMs > last.window.after &&
    nowMs < last.window.before
  ) {
    return Promise.resolve({ ...last.report, reused: true });
  }
  const running = computeCollisions(ctx, robot, index, nowMs)
    .then((report) => {
      entry.lastRuleIds = collidingRuleIds(report);
      // Kept with the state read before the run: a write during it makes the next request
      // check again.
      if (state) entry.last = { report, ...state };
      return report;
    })
    .finally(() => {
      if (entry.running === running) delete entry.running;
    });
  entry.running = running;
  return running;
}

/** The rules of the last finished check (it is run first when there is none). */
export async function lastCollidingRuleIds(ctx: DomainContext, robot: Robot): Promise<string[]> {
  const known = checksOf(ctx, robot).lastRuleIds;
  return known ?? collidingRuleIds(await ruleCollisions(ctx, robot));
}

function collidingRuleIds(report: RobotCollisions): string[] {
  const ids = new Set<string>();
  for (const finding of report.findings) ids.add(finding.ruleId).add(finding.otherRuleId);
  return [...ids];
}

/** Reads the engine's report (run in slices: ask keeps being answered meanwhile). */
async function computeCollisions(
  ctx: DomainContext,
  robot: Robot,
  index: RobotIndex,
  nowMs: number,
): Promise<RobotCollisions> {
  const checkedAt = new Date(nowMs).toISOString();
  if (index.collisions === undefined) {
    return { probed: 0, complete: true, findings: [], checkedAt, reused: false };
  }
  const report = await index.collisions({ nowMs, settings: robot.settings });
  const ids = new Set<string>();
  for (const finding of report.findings) ids.add(finding.ruleId).add(finding.otherRuleId);
  const names = await ctx.store.rules.namesOf([...ids]);
  const name = (ruleId: string): string => names.get(ruleId) ?? '';
  return {
    probed: report.probed,
    complete: report.complete,
    findings: report.findings.map((finding) => ({
      ...finding,
      ruleName: name(finding.ruleId),
      otherRuleName: name(finding.otherRuleId),
    })),
    checkedAt,
    reused: false,
  };
}
