/**
 * Every schema the editor checks a field with, by name. build/field-validators.ts compiles them
 * with Ajv at build time into renderer/api/generated/field-validators.js, so the editor checks
 * fields without compiling code at run time (its CSP has no 'unsafe-eval',
 * electron/service/editor-policy.ts). A schema checked in the editor must be listed here:
 * `compileCheck` refuses one that is not.
 * @module
 */
import type { TSchema } from '@sinclair/typebox';
import {
  CategoryNameBody,
  ROBOT_SETTINGS,
} from '../../electron/service/validation/console-schemas';
import {
  AddUserBody,
  CreateRobotBody,
  RegisterTenantBody,
  RuleInputSchema,
} from '../../electron/service/validation/schemas';

const tenant = RegisterTenantBody.properties;
const rule = RuleInputSchema.properties;

export const FIELD_SCHEMAS = {
  tenantUsername: tenant.username,
  tenantPassword: tenant.password,
  tenantPhoneNumber: tenant.phoneNumber,
  tenantMail: tenant.mail,
  tenantCompany: tenant.company,
  userUsername: AddUserBody.properties.username,
  userPassword: AddUserBody.properties.password,
  robotName: CreateRobotBody.properties.name,
  ruleName: rule.ruleName,
  ruleQuestions: rule.questions,
  ruleAnswer: rule.answer,
  categoryName: CategoryNameBody.properties.name,
  fallbackText: ROBOT_SETTINGS.fallbackText,
  recommendText: ROBOT_SETTINGS.recommendText,
  bestmatchThreshold: ROBOT_SETTINGS.bestmatchThreshold,
  recommendThreshold: ROBOT_SETTINGS.recommendThreshold,
  margin: ROBOT_SETTINGS.margin,
  maxRecommend: ROBOT_SETTINGS.maxRecommend,
  synonymMember: ROBOT_SETTINGS.synonyms.items.items,
  synonymGroups: ROBOT_SETTINGS.synonyms,
} satisfies Record<string, TSchema>;

export type FieldSchemaName = keyof typeof FIELD_SCHEMAS;
