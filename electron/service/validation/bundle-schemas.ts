/**
 * The schema of a robot bundle (domain/robot-bundles.ts): a robot copied between services as one
 * JSON document. The rule fields and limits are the console's; what one field cannot say alone
 * (references between rules, unique names) is checked by the domain. The bundle's types
 * (robot-bundle-types.ts) are derived from these.
 * @module
 */
import { Type } from '@sinclair/typebox';
import { LIMITS } from '../limits';
import { ROBOT_SETTINGS, ruleFields } from './console-schemas';
import { expectation } from './publishing-schemas';
import { string, text } from './schemas';

export const BUNDLE_FORMAT = 'kb-studio-robot';
export const BUNDLE_VERSION = 1;

const ruleId = string({ minLength: 1, maxLength: 64 });

export const BundleRuleSchema = Type.Object({
  ruleId,
  ruleName: ruleFields.ruleName,
  questions: ruleFields.questions,
  answer: ruleFields.answer,
  categoryName: Type.Union([text(LIMITS.categoryMax), Type.Null()]),
  active: ruleFields.active,
  allowSimGen: ruleFields.allowSimGen,
  effectBeignDate: ruleFields.effectBeignDate,
  effectEndDate: ruleFields.effectEndDate,
  matchPolicy: ruleFields.matchPolicy,
  negativeKeywords: ruleFields.negativeKeywords,
  menu: ruleFields.menu,
});

export const BundleTestCaseSchema = Type.Object({
  question: text(LIMITS.askQuestionMax),
  expect: expectation,
  ruleId: Type.Union([ruleId, Type.Null()]),
});

export const RobotBundleBody = Type.Object({
  format: Type.Literal(BUNDLE_FORMAT),
  version: Type.Literal(BUNDLE_VERSION),
  robot: Type.Object({
    name: text(LIMITS.robotNameMax),
    // Only settings this version knows: a bundle of a newer one is refused by name, not
    // half-applied.
    settings: Type.Partial(Type.Object(ROBOT_SETTINGS, { additionalProperties: false })),
  }),
  categories: Type.Array(Type.Object({ name: text(LIMITS.categoryMax) }), { maxItems: 10_000 }),
  rules: Type.Array(BundleRuleSchema, { maxItems: LIMITS.bundleRulesMax }),
  testCases: Type.Array(BundleTestCaseSchema, { maxItems: LIMITS.bundleTestCasesMax }),
});
