/** Robot bundles made by tests (docs/api.md, "Copying a robot"). */
import type { BundleRule, RobotBundle } from '../../electron/service/robot-bundle-types';

/** A plain rule of a bundle: every field at its default, `fields` over them. */
export function bundleRule(ruleId: string, ruleName: string, fields: Partial<BundleRule> = {}) {
  return {
    ruleId,
    ruleName,
    questions: [`${ruleName}?`],
    answer: `Answer for ${ruleName}`,
    categoryName: null,
    active: true,
    allowSimGen: null,
    effectBeignDate: null,
    effectEndDate: null,
    matchPolicy: 'similarity',
    negativeKeywords: [],
    menu: null,
    ...fields,
  } satisfies BundleRule;
}

/** A bundle of `rules`, named `name`, without categories or test cases unless given. */
export function bundleOf(
  name: string,
  rules: BundleRule[],
  more: Partial<Pick<RobotBundle, 'categories' | 'testCases'>> = {},
): RobotBundle {
  return {
    format: 'kb-studio-robot',
    version: 1,
    robot: { name, settings: {} },
    categories: [],
    rules,
    testCases: [],
    ...more,
  };
}
