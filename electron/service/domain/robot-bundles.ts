/**
 * A robot as one JSON bundle, to copy it from one service to another (the desktop's embedded
 * service and a team server) over the console API: the export of a robot, and the import of a
 * bundle as a new robot of a tenant (docs/api.md, "Copying a robot").
 *
 * An import is built hidden, in the trash, one transaction per step (the robot, each category,
 * all rules, all test cases), and comes out of it only once complete; a step that fails purges
 * what was made. A crash of the receiving service half-way leaves the robot in its trash, never
 * among its robots.
 * @module
 */
import { randomToken } from '../auth/credentials';
import { ServiceError } from '../errors';
import { UniqueViolation } from '../store/contract/errors';
import type { MenuEntry, NewRule, RobotKey, StoredRule } from '../store/contract/records';
import type { TestCaseContent } from '../store/contract/test-sets';
import type { BundleRule, RobotBundle, RobotImportResult } from '../robot-bundle-types';
import { BUNDLE_FORMAT, BUNDLE_VERSION } from '../validation/bundle-schemas';
import { effectiveWindowProblems } from '../validation/effective-window';
import type { DomainContext } from './context';
import { loadRobot } from './deletions';
import { timeOrderedUuid } from './ids';
import { robotKey } from './robot-directory';
import type { Robot } from './robot-directory';
import { freeRobotId } from './robots';
import { settingsInForce, withoutSecrets } from './robot-settings';
import type { RobotSettings } from './robot-settings';
import { ruleNameKey } from './rules';
import { assertTenantExists } from './tenant-lookup';
import { toConsoleRobot } from './workspace';

/** Rules read from the store a page at a time while exporting. */
const EXPORT_PAGE = 1000;

const categoryKey = (name: string) => name.trim();

function toBundleRule(rule: StoredRule, categoryNames: Map<string, string>): BundleRule {
  return {
    ruleId: rule.ruleId,
    ruleName: rule.ruleName,
    questions: rule.questions,
    answer: rule.answer,
    categoryName: categoryNames.get(rule.categoryId) ?? null,
    active: rule.active,
    allowSimGen: rule.allowSimGen,
    effectBeignDate: rule.effectBegin,
    effectEndDate: rule.effectEnd,
    matchPolicy: rule.matchPolicy ?? 'similarity',
    negativeKeywords: rule.negativeKeywords ?? [],
    menu: rule.menu && rule.menu.length > 0 ? rule.menu : null,
  };
}

/**
 * The robot as a bundle: name, the settings it set (synonyms among them), categories, every rule
 * in creation order, test cases. Read in the robot's write queue, so no write of this service
 * lands between two pages. Menu entries and test cases leading to rules no longer in the robot
 * (in its trash) are left out and counted in `omitted`.
 */
export function exportRobot(ctx: DomainContext, robot: Robot): Promise<RobotBundle> {
  return ctx.writes.run(robotKey(robot), async () => {
    const categories = await ctx.store.categories.list(robot);
    const categoryNames = new Map(categories.map((c) => [c.categoryId, c.name]));
    const rules: BundleRule[] = [];
    for (let from = 0; ;) {
      const page = await ctx.store.rules.pageFrom(robot, from, EXPORT_PAGE);
      for (const rule of page) rules.push(toBundleRule(rule, categoryNames));
      if (page.length < EXPORT_PAGE) break;
      from = (page[page.length - 1] as StoredRule).seq + 1;
    }
    const ruleIds = new Set(rules.map((rule) => rule.ruleId));
    let menuEntries = 0;
    for (const rule of rules) {
      if (!rule.menu) continue;
      const kept = rule.menu.filter((entry) => ruleIds.has(entry.ruleId));
      menuEntries += rule.menu.length - kept.length;
      rule.menu = kept.length > 0 ? kept : null;
    }
    const cases = await ctx.store.testSets.cases(robot);
    const testCases = cases
      .filter((c) => c.ruleId === null || ruleIds.has(c.ruleId))
      .map((c) => ({ question: c.question, expect: c.expect, ruleId: c.ruleId }));
    return {
      format: BUNDLE_FORMAT,
      version: BUNDLE_VERSION,
      exportedAt: new Date(ctx.now()).toISOString(),
      robot: {
        name: robot.name,
        // The provider's API key is a secret: it stays with the robot it was given to.
        settings: { ...(withoutSecrets(robot.storedSettings) as RobotBundle['robot']['settings']) },
      },
      categories: categories.map((c) => ({ name: c.name })),
      rules,
      testCases,
      omitted: { menuEntries, testCases: cases.length - testCases.length },
    };
  });
}

function invalid(field: string, message: string): ServiceError {
  return new ServiceError('invalid-field', `${message} Nothing was imported.`, field);
}

/**
 * What the schema cannot see in a bundle (validation/bundle-schemas.ts has checked each field):
 * names and ids unique, categories and menu entries and test cases leading to what the bundle
 * holds, effective windows in order, thresholds in order. The first problem is thrown, naming
 * its field (`rules[12].menu[0].ruleId`).
 */
export function checkBundle(bundle: RobotBundle): void {
  const settings = settingsInForce(bundle.robot.settings as Partial<RobotSettings>, 'en');
  if (settings.recommendThreshold > settings.bestmatchThreshold) {
    throw invalid(
      'robot.settings.recommendThreshold',
      'robot.settings.recommendThreshold must not be above robot.settings.bestmatchThreshold.',
    );
  }
  const categories = new Set<string>();
  for (const [i, category] of bundle.categories.entries()) {
    const key = categoryKey(category.name);
    if (categories.has(key)) {
      throw invalid(`categories[${i}].name`, `Category "${key}" is in the bundle twice.`);
    }
    categories.add(key);
  }
  const ruleIds = new Set<string>();
  const names = new Set<string>();
  for (const [i, rule] of bundle.rules.entries()) {
    const at = `rules[${i}]`;
    if (ruleIds.has(rule.ruleId)) {
      throw invalid(`${at}.ruleId`, `Rule id ${rule.ruleId} is in the bundle twice.`);
    }
    ruleIds.add(rule.ruleId);
    const name = ruleNameKey(rule.ruleName);
    if (names.has(name)) {
      throw invalid(`${at}.ruleName`, `Rule name "${name}" is in the bundle twice.`);
    }
    names.add(name);
    if (rule.categoryName !== null && !categories.has(categoryKey(rule.categoryName))) {
      throw invalid(
        `${at}.categoryName`,
        `${at}.categoryName "${rule.categoryName}" is not one of the bundle's categories.`,
      );
    }
    const [window] = effectiveWindowProblems(rule.effectBeignDate, rule.effectEndDate);
    if (window) throw invalid(`${at}.${window.field}`, `${at}: ${window.message}`);
  }
  for (const [i, rule] of bundle.rules.entries()) {
    for (const [j, entry] of (rule.menu ?? []).entries()) {
      if (!ruleIds.has(entry.ruleId)) {
        throw invalid(
          `rules[${i}].menu[${j}].ruleId`,
          `Menu entry ${j + 1} of rules[${i}] leads to ${entry.ruleId}, which is not a rule of the bundle.`,
        );
      }
    }
  }
  for (const [i, test] of bundle.testCases.entries()) {
    const at = `testCases[${i}].ruleId`;
    if (test.expect === 'fallback' ? test.ruleId !== null : test.ruleId === null) {
      throw invalid(
        at,
        test.expect === 'fallback'
          ? `${at} must be null when expect is fallback.`
          : `${at} must name a rule of the bundle when expect is ${test.expect}.`,
      );
    }
    if (test.ruleId !== null && !ruleIds.has(test.ruleId)) {
      throw invalid(at, `${at} ${test.ruleId} is not a rule of the bundle.`);
    }
  }
}

/**
 * The id each bundle rule gets in this store. `keep`: its own when no rule of the store holds
 * it, else a new one. Otherwise always a new one: rule ids are unique across the store, so an id
 * kept or not would tell an importer who sees one tenant whether another tenant has that rule.
 * Menus and test cases follow through this map.
 */
async function ruleIdsHere(ctx: DomainContext, rules: readonly BundleRule[], keep: boolean) {
  const ids = new Map<string, string>();
  const now = ctx.now();
  for (const rule of rules) {
    const free = keep && !(await ctx.store.rules.idExists(rule.ruleId));
    ids.set(rule.ruleId, free ? rule.ruleId : timeOrderedUuid(now));
  }
  return ids;
}

function toNewRule(
  rule: BundleRule,
  ids: Map<string, string>,
  categoryIds: Map<string, string>,
  now: number,
): NewRule {
  const idOf = (id: string) => ids.get(id) as string;
  const menu: MenuEntry[] | null =
    rule.menu && rule.menu.length > 0
      ? rule.menu.map((entry) => ({ ruleId: idOf(entry.ruleId), text: entry.text }))
      : null;
  return {
    ruleId: idOf(rule.ruleId),
    ruleName: rule.ruleName,
    nameKey: ruleNameKey(rule.ruleName),
    categoryId:
      rule.categoryName === null ? '' : (categoryIds.get(categoryKey(rule.categoryName)) ?? ''),
    active: rule.active,
    allowSimGen: rule.allowSimGen,
    effectBegin: rule.effectBeignDate,
    effectEnd: rule.effectEndDate,
    questions: rule.questions,
    answer: rule.answer,
    matchPolicy: rule.matchPolicy,
    negativeKeywords: rule.negativeKeywords,
    menu,
    createdAt: now,
  };
}

/** Writes the robot's content, each step one transaction, the robot hidden meanwhile. */
async function fillRobot(
  ctx: DomainContext,
  key: RobotKey,
  bundle: RobotBundle,
  ids: Map<string, string>,
  actor: string,
): Promise<StoredRule[]> {
  const now = ctx.now();
  const categoryIds = new Map<string, string>();
  for (const category of bundle.categories) {
    const name = categoryKey(category.name);
    const made = await ctx.store.categories.create(key, category.name, name, now);
    categoryIds.set(name, made.categoryId);
  }
  const stored = await ctx.store.rules.insert(
    key,
    bundle.rules.map((rule) => toNewRule(rule, ids, categoryIds, now)),
    now,
    actor,
  );
  const cases: TestCaseContent[] = bundle.testCases.map((test) => ({
    question: test.question,
    expect: test.expect,
    ruleId: test.ruleId === null ? null : (ids.get(test.ruleId) as string),
  }));
  if (cases.length > 0) await ctx.store.testSets.add(key, cases, now);
  return stored;
}

/** Who imports: what they may learn of the store decides whether rule ids are kept. */
export interface Importer {
  /** Who the changes are recorded as made by. */
  actor: string;
  /**
   * The importer sees every tenant (the per-launch token of the desktop or of a server without
   * sign-in): bundle rule ids free in the store are kept. An administrator signed in to one
   * tenant gets new ids for every rule, which tells nothing of the other tenants' rules.
   */
  seesEveryTenant: boolean;
}

/**
 * Makes a new robot of the tenant from a bundle (checked here first: a bad bundle creates
 * nothing). The robot gets a new id and its own secret, and starts in live mode; rule ids are
 * kept or replaced as `Importer.seesEveryTenant` says, consistently in menus and test cases.
 */
export async function importRobot(
  ctx: DomainContext,
  tenantId: number,
  bundle: RobotBundle,
  importer: Importer,
): Promise<RobotImportResult> {
  const { actor } = importer;
  await assertTenantExists(ctx, tenantId);
  checkBundle(bundle);
  const robotId = await freeRobotId(ctx, tenantId);
  const key: RobotKey = { tenantId, robotId };
  // A robot in review mode answers its latest version, and versions are not copied: the copy
  // starts live (answering what was copied); switching it to review there publishes that first.
  const settings = { ...bundle.robot.settings };
  delete settings.publishMode;
  return ctx.writes.run(robotKey(key), async () => {
    const now = ctx.now();
    const record = {
      ...key,
      name: bundle.robot.name,
      secret: randomToken(32),
      settingsJson: JSON.stringify(settings),
      createdAt: now,
    };
    await ctx.store.robots.insert(record);
    let stored: StoredRule[];
    let ids: Map<string, string>;
    try {
      await ctx.store.robots.setDeleted(key, now);
      ids = await ruleIdsHere(ctx, bundle.rules, importer.seesEveryTenant);
      stored = await fillRobot(ctx, key, bundle, ids, actor);
      await ctx.store.robots.setDeleted(key, null);
    } catch (error) {
      await ctx.store.robots.purge(key).catch((cleanup: unknown) => {
        ctx.logger.error(`the half-made copy ${tenantId}/${robotId} could not be purged`, cleanup);
      });
      if (error instanceof UniqueViolation) {
        throw new ServiceError(
          'rule-exists',
          'A rule id of the bundle was taken by another write during the import: import it again. Nothing was imported.',
        );
      }
      throw error;
    }
    const robot = await loadRobot(ctx, record);
    ctx.menus?.follow(stored, []);
    let ruleIdsChanged = 0;
    for (const [from, to] of ids) if (from !== to) ruleIdsChanged += 1;
    return {
      robot: toConsoleRobot(ctx, robot),
      categories: bundle.categories.length,
      rules: stored.length,
      testCases: bundle.testCases.length,
      ruleIdsChanged,
    };
  });
}
