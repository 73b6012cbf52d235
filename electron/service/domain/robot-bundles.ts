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
import type { ErrorObject, ValidateFunction } from 'ajv';
import { LIMITS } from '../limits';
import type { BundleRule, RobotBundle, RobotImportResult } from '../robot-bundle-types';
import { forEachInSlices, nextTurn } from '../time-slices';
import { createAjv, describeValidationErrors } from '../validation/ajv';
import {
  BUNDLE_FORMAT,
  BUNDLE_VERSION,
  BundleRuleSchema,
  RobotBundleBody,
} from '../validation/bundle-schemas';
import { effectiveWindowProblems } from '../validation/effective-window';
import { readBundle } from './bundle-stream';
import type { DomainContext } from './context';
import { indexKey, indexLoader } from './robot-loading';
import { applySynonyms } from './robot-synonyms';
import { timeOrderedUuid } from './ids';
import { hasHan, robotKey } from './robot-directory';
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

/** A bundle's bytes, readable twice: once to check it whole, then to write it. */
export interface BundleSource {
  read(): AsyncIterable<Uint8Array>;
}

let validators:
  { rule: ValidateFunction<BundleRule>; head: ValidateFunction<RobotBundle> } | undefined;

/** The bundle's schemas compiled once, on the first import. */
function bundleValidators() {
  if (!validators) {
    const ajv = createAjv();
    validators = {
      rule: ajv.compile<BundleRule>(BundleRuleSchema),
      head: ajv.compile<RobotBundle>(RobotBundleBody),
    };
  }
  return validators;
}

/**
 * Compiles the bundle's schemas ahead: Ajv's code generation took ~100 ms of the event loop,
 * which held the asks answered during a service's first import. Called as the service starts.
 */
export function prepareBundleChecks(): void {
  bundleValidators();
}

/** The first problem Ajv found, as a ServiceError naming the field (`rules[3].answer`). */
function schemaProblem(errors: readonly ErrorObject[], prefix = ''): ServiceError {
  const [problem] = describeValidationErrors(
    errors.map((error) => ({ ...error, instancePath: `${prefix}${error.instancePath}` })),
  );
  return new ServiceError(
    problem?.code ?? 'invalid-field',
    problem?.message ?? 'The bundle is invalid.',
    problem?.field,
    { keyword: problem?.keyword ?? 'invalid', params: problem?.params ?? {} },
  );
}

/** What the check of a bundle keeps of its rules: ids, names and what they lead to. */
class RuleLedger {
  readonly ids = new Set<string>();
  private readonly names = new Set<string>();
  /** Category names used, with the first rule using each. */
  private readonly categoryUses = new Map<string, number>();
  /** Menu entries, checked once every rule id is known: [rule, entry, id]. */
  private readonly menuEntries: [number, number, string][] = [];

  add(rule: BundleRule, i: number): void {
    const at = `rules[${i}]`;
    if (this.ids.has(rule.ruleId)) {
      throw invalid(`${at}.ruleId`, `Rule id ${rule.ruleId} is in the bundle twice.`);
    }
    this.ids.add(rule.ruleId);
    const name = ruleNameKey(rule.ruleName);
    if (this.names.has(name)) {
      throw invalid(`${at}.ruleName`, `Rule name "${name}" is in the bundle twice.`);
    }
    this.names.add(name);
    if (rule.categoryName !== null && !this.categoryUses.has(categoryKey(rule.categoryName))) {
      this.categoryUses.set(categoryKey(rule.categoryName), i);
    }
    const [window] = effectiveWindowProblems(rule.effectBeignDate, rule.effectEndDate);
    if (window) throw invalid(`${at}.${window.field}`, `${at}: ${window.message}`);
    for (const [j, entry] of (rule.menu ?? []).entries())
      this.menuEntries.push([i, j, entry.ruleId]);
  }

  /**
   * What needs the whole bundle: categories used exist, menus lead to rules of it (in slices:
   * a bundle's menu entries can number as many as its rules).
   */
  async finish(categories: ReadonlySet<string>): Promise<void> {
    let missing: [string, number] | undefined;
    for (const [name, i] of this.categoryUses) {
      if (!categories.has(name) && (missing === undefined || i < missing[1])) missing = [name, i];
    }
    if (missing) {
      const at = `rules[${missing[1]}].categoryName`;
      throw invalid(at, `${at} "${missing[0]}" is not one of the bundle's categories.`);
    }
    await forEachInSlices(this.menuEntries, ([i, j, id]) => {
      if (!this.ids.has(id)) {
        throw invalid(
          `rules[${i}].menu[${j}].ruleId`,
          `Menu entry ${j + 1} of rules[${i}] leads to ${id}, which is not a rule of the bundle.`,
        );
      }
    });
  }
}

/**
 * Reads the whole bundle once, rule by rule, writing nothing: each field as the schema says,
 * and what the schema cannot see (names and ids unique, categories and menu entries and test
 * cases leading to what the bundle holds, effective windows and thresholds in order). The first
 * problem is thrown, naming its field (`rules[12].menu[0].ruleId`). Returns the bundle without
 * its rules, and how many rules it has.
 */
export async function checkBundle(
  source: BundleSource,
): Promise<{ head: RobotBundle; rules: number }> {
  const check = bundleValidators();
  const ledger = new RuleLedger();
  let rules = 0;
  const { fields, hasRules } = await readBundle(
    source.read(),
    (rule, i) => {
      if (!check.rule(rule)) throw schemaProblem(check.rule.errors ?? [], `/rules/${i}`);
      ledger.add(rule, i);
      rules += 1;
    },
    LIMITS.bundleRulesMax,
  );
  const head = hasRules ? { ...fields, rules: [] } : fields;
  if (!check.head(head)) throw schemaProblem(check.head.errors ?? []);
  const settings = settingsInForce(head.robot.settings as Partial<RobotSettings>, 'en');
  if (settings.recommendThreshold > settings.bestmatchThreshold) {
    throw invalid(
      'robot.settings.recommendThreshold',
      'robot.settings.recommendThreshold must not be above robot.settings.bestmatchThreshold.',
    );
  }
  const categories = new Set<string>();
  for (const [i, category] of head.categories.entries()) {
    const key = categoryKey(category.name);
    if (categories.has(key)) {
      throw invalid(`categories[${i}].name`, `Category "${key}" is in the bundle twice.`);
    }
    categories.add(key);
  }
  await ledger.finish(categories);
  for (const [i, test] of head.testCases.entries()) {
    const at = `testCases[${i}].ruleId`;
    if (test.expect === 'fallback' ? test.ruleId !== null : test.ruleId === null) {
      throw invalid(
        at,
        test.expect === 'fallback'
          ? `${at} must be null when expect is fallback.`
          : `${at} must name a rule of the bundle when expect is ${test.expect}.`,
      );
    }
    if (test.ruleId !== null && !ledger.ids.has(test.ruleId)) {
      throw invalid(at, `${at} ${test.ruleId} is not a rule of the bundle.`);
    }
  }
  return { head, rules };
}

/**
 * The id each bundle rule gets in this store, decided on first sight (its own rule, or a menu
 * entry leading to it). `keep`: its own when no rule of the store holds it, else a new one.
 * Otherwise always a new one: rule ids are unique across the store, so an id kept or not would
 * tell an importer who sees one tenant whether another tenant has that rule.
 */
class RuleIds {
  readonly map = new Map<string, string>();
  /** Counted as ids are decided: a pass over the map at the end grew with the bundle. */
  changed = 0;
  constructor(
    private readonly ctx: DomainContext,
    private readonly keep: boolean,
  ) {}

  async of(id: string): Promise<string> {
    const known = this.map.get(id);
    if (known !== undefined) return known;
    const free = this.keep && !(await this.ctx.store.rules.idExists(id));
    const here = free ? id : timeOrderedUuid(this.ctx.now());
    this.map.set(id, here);
    if (here !== id) this.changed += 1;
    return here;
  }
}

async function toNewRule(
  rule: BundleRule,
  ids: RuleIds,
  categoryIds: Map<string, string>,
  now: number,
): Promise<NewRule> {
  const menu: MenuEntry[] = [];
  for (const entry of rule.menu ?? [])
    menu.push({ ruleId: await ids.of(entry.ruleId), text: entry.text });
  return {
    ruleId: await ids.of(rule.ruleId),
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
    menu: menu.length > 0 ? menu : null,
    createdAt: now,
  };
}

/** Rules written per transaction: a few milliseconds of the store's time each. */
const WRITE_BATCH = 200;

/** What the writing of a bundle made, for the answer and the robot's memory. */
interface Filled {
  rules: number;
  /**
   * Rules with a Han character in their name, counted as they are written: the robot's language
   * without reading every rule back (a scan of 90k rules held the event loop at the end).
   */
  han: number;
  /** The menus by rule id, for the menus in memory once the robot is out (not the whole rules). */
  menus: [string, MenuEntry[]][];
}

/**
 * Writes the robot's content, the robot hidden meanwhile: each category, then the rules as they
 * are read again, `WRITE_BATCH` per transaction with a turn of the event loop between; then the
 * test cases.
 */
async function fillRobot(
  ctx: DomainContext,
  key: RobotKey,
  source: BundleSource,
  head: RobotBundle,
  ids: RuleIds,
  actor: string,
): Promise<Filled> {
  const now = ctx.now();
  const categoryIds = new Map<string, string>();
  for (const category of head.categories) {
    const name = categoryKey(category.name);
    const made = await ctx.store.categories.create(key, category.name, name, now);
    categoryIds.set(name, made.categoryId);
  }
  const filled: Filled = { rules: 0, han: 0, menus: [] };
  const { rule: isRule } = bundleValidators();
  let batch: NewRule[] = [];
  const write = async () => {
    if (batch.length === 0) return;
    const stored = await ctx.store.rules.insert(key, batch, now, actor);
    batch = [];
    filled.rules += stored.length;
    await forEachInSlices(stored, (rule) => {
      if (rule.menu && rule.menu.length > 0) filled.menus.push([rule.ruleId, rule.menu]);
      if (hasHan(rule.ruleName)) filled.han += 1;
    });
    await nextTurn();
  };
  await readBundle(
    source.read(),
    async (rule) => {
      // Checked on the first reading; checked again as the type guard of the same bytes.
      if (!isRule(rule)) throw schemaProblem(isRule.errors ?? []);
      batch.push(await toNewRule(rule, ids, categoryIds, now));
      if (batch.length >= WRITE_BATCH) await write();
    },
    LIMITS.bundleRulesMax,
  );
  await write();
  const cases: TestCaseContent[] = [];
  for (const test of head.testCases) {
    cases.push({
      question: test.question,
      expect: test.expect,
      ruleId: test.ruleId === null ? null : await ids.of(test.ruleId),
    });
  }
  if (cases.length > 0) await ctx.store.testSets.add(key, cases, now);
  return filled;
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
 * Makes a new robot of the tenant from a bundle, read twice from `source`: checked whole first
 * (a bad bundle writes nothing), then written in batches with the robot hidden. The robot gets a
 * new id and its own secret, and starts in live mode; rule ids are kept or replaced as
 * `Importer.seesEveryTenant` says, consistently in menus and test cases.
 */
export async function importRobot(
  ctx: DomainContext,
  tenantId: number,
  source: BundleSource,
  importer: Importer,
): Promise<RobotImportResult> {
  const { actor } = importer;
  await assertTenantExists(ctx, tenantId);
  const { head } = await checkBundle(source);
  const robotId = await freeRobotId(ctx, tenantId);
  const key: RobotKey = { tenantId, robotId };
  // A robot in review mode answers its latest version, and versions are not copied: the copy
  // starts live (answering what was copied); switching it to review there publishes that first.
  const settings = { ...head.robot.settings };
  delete settings.publishMode;
  return ctx.writes.run(robotKey(key), async () => {
    const now = ctx.now();
    const record = {
      ...key,
      name: head.robot.name,
      secret: randomToken(32),
      settingsJson: JSON.stringify(settings),
      createdAt: now,
    };
    await ctx.store.robots.insert(record);
    const ids = new RuleIds(ctx, importer.seesEveryTenant);
    let filled: Filled;
    try {
      await ctx.store.robots.setDeleted(key, now);
      filled = await fillRobot(ctx, key, source, head, ids, actor);
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
    // loadRobot's work but for the index, which is built from the store when the copy is first
    // asked (as on a team node, where every index is): built here, it was most of the import's
    // memory (about twice the bundle in the heap) for a robot nobody may ask yet.
    const loader = indexLoader(() => ctx);
    ctx.indexes.deferUntilAsked(indexKey(key), (k) => loader.load(k));
    // Before the robot is put: no ask reaches it without its menus. In slices: one per rule at most.
    await forEachInSlices(filled.menus, ([ruleId, menu]) => ctx.menus?.set(ruleId, menu));
    ctx.robots.countRules(record, { rules: filled.rules, han: filled.han });
    const robot = ctx.robots.put(record);
    applySynonyms(ctx, robot);
    await ctx.publishing?.robotRestored(robot);
    return {
      robot: toConsoleRobot(ctx, robot),
      categories: head.categories.length,
      rules: filled.rules,
      testCases: head.testCases.length,
      ruleIdsChanged: ids.changed,
    };
  });
}
