/**
 * What a test run or a comparison asks: the draft, the published version, or any version. An
 * old version's index is built for the run and dropped after it.
 * @module
 */
import type { DomainContext } from '../domain/context';
import { draftEdition } from '../domain/editions';
import { indexOf } from '../domain/robot-loading';
import { bytesForRules } from '../domain/robot-indexes';
import type { Robot } from '../domain/robot-directory';
import { toMatchableRule } from '../domain/rule-views';
import { ServiceError } from '../errors';
import type { RobotIndex } from '../matching/types';
import type { StoredRule } from '../store/contract/records';
import { forEachInSlices, nextTurn } from '../time-slices';

/** `draft`, `published` or a version number. */
export type Target = 'draft' | 'published' | number;

export interface TargetIndex {
  /** `draft`, `published` or `v<n>`: what a kept run says it ran against. */
  name: string;
  index: RobotIndex;
  namesOf(ruleIds: readonly string[]): Promise<Map<string, string>>;
}

/** A target's index while it is used: an old version's counts in the memory budget till then. */
interface HeldTarget extends TargetIndex {
  release?(): void;
}

export function parseTarget(text: string, field: string): Target {
  if (text === 'draft' || text === 'published') return text;
  const version = /^v?([1-9]\d{0,8})$/.exec(text);
  if (!version) {
    throw new ServiceError(
      'invalid-field',
      `${field} must be draft, published or a version number.`,
      field,
    );
  }
  return Number(version[1]);
}

async function versionIndex(
  ctx: DomainContext,
  robot: Robot,
  version: number,
): Promise<HeldTarget> {
  const record = await ctx.store.versions.find(robot, version);
  if (!record) throw new ServiceError('version-not-found', `Version ${version} does not exist.`);
  const latest = await ctx.store.versions.latest(robot);
  const published = ctx.publishing?.published(robot);
  if (published && latest?.version === version) return { name: `v${version}`, ...published };
  const rules = await versionRules(ctx, robot, version);
  // Built whatever the budget (nothing else answers for an old version); robots let go make room.
  const reservation = ctx.indexes.reserve(bytesForRules(rules.length), true);
  try {
    const index = ctx.indexes.createDetached();
    if (index.setSynonyms && robot.settings.synonyms.length > 0) {
      index.setSynonyms(robot.settings.synonyms);
    }
    // Ten thousand rules take longer than a slice: the openapi's questions are answered meanwhile.
    await forEachInSlices(rules, (rule) => index.upsert(toMatchableRule(rule)));
    const names = new Map(rules.map((rule) => [rule.ruleId, rule.ruleName]));
    return {
      name: `v${version}`,
      index,
      namesOf: async (ruleIds) =>
        new Map(ruleIds.filter((id) => names.has(id)).map((id) => [id, names.get(id) as string])),
      release: () => reservation?.release(),
    };
  } catch (error) {
    reservation?.release();
    throw error;
  }
}

/**
 * The index a target answers from. `published` is the latest version (the published index of a
 * robot in review mode; in live mode, where the openapi answers the draft, the last publish).
 */
async function targetIndex(ctx: DomainContext, robot: Robot, target: Target): Promise<HeldTarget> {
  if (target === 'draft') {
    return { name: 'draft', ...draftEdition(ctx, await indexOf(ctx, robot)) };
  }
  if (target === 'published') {
    const published = ctx.publishing?.published(robot);
    if (published) return { name: 'published', ...published };
    const latest = await ctx.store.versions.latest(robot);
    if (!latest) throw new ServiceError('version-not-found', 'Nothing has been published yet.');
    return { ...(await versionIndex(ctx, robot, latest.version)), name: 'published' };
  }
  return versionIndex(ctx, robot, target);
}

/**
 * Runs `use` with the index `target` answers from, held until it ends: an old version's index,
 * built for the run, counts in the node's memory budget till then (RobotIndexes.reserve).
 */
export async function withTargetIndex<T>(
  ctx: DomainContext,
  robot: Robot,
  target: Target,
  use: (target: TargetIndex) => Promise<T>,
): Promise<T> {
  const held = await targetIndex(ctx, robot, target);
  try {
    return await use(held);
  } finally {
    held.release?.();
  }
}

/** Rules read at a time: pages of 5000 held the event loop ~120 ms, of 500 ~50. */
const RULES_PAGE = 250;

/** Reads one page: at most `limit` rules from rule_seq `fromSeq` on, in creation order. */
type ReadPage = (fromSeq: number, limit: number) => Promise<StoredRule[]>;

/** All the rules `read` gives, page by page with a turn between (the draft's or a version's). */
async function pagedRules(read: ReadPage): Promise<StoredRule[]> {
  const rules: StoredRule[] = [];
  for (let from = 0; ;) {
    const page = await read(from, RULES_PAGE);
    rules.push(...page);
    if (page.length < RULES_PAGE) return rules;
    from = (page[page.length - 1] as StoredRule).seq + 1;
    await nextTurn();
  }
}

function versionRules(ctx: DomainContext, robot: Robot, version: number): Promise<StoredRule[]> {
  return pagedRules((from, limit) => ctx.store.versions.rulesFrom(robot, version, from, limit));
}

/** The rules of a target (`published`: the latest version, none before the first publish). */
export async function rulesOf(
  ctx: DomainContext,
  robot: Robot,
  target: Target,
): Promise<StoredRule[]> {
  if (target === 'draft') {
    return pagedRules((from, limit) => ctx.store.rules.pageFrom(robot, from, limit));
  }
  if (target === 'published') {
    const latest = await ctx.store.versions.latest(robot);
    return latest ? versionRules(ctx, robot, latest.version) : [];
  }
  if (!(await ctx.store.versions.find(robot, target))) {
    throw new ServiceError('version-not-found', `Version ${target} does not exist.`);
  }
  return versionRules(ctx, robot, target);
}
