/**
 * JSON schemas of every request the openapi routes accept, with the limits of the interface and
 * the contract. Lengths count code points (Ajv's default), as the contract requires.
 * @module
 */
import { Type } from '@sinclair/typebox';
import type { StringOptions } from '@sinclair/typebox';
import { LIMITS } from '../limits';

/**
 * Every string a client sends: well-formed text (no lone surrogate, validation/well-formed.ts).
 * Schemas use this, never `Type.String` (a unit test walks them all).
 */
export const string = (options: StringOptions = {}) =>
  Type.String({ ...options, wellFormed: true });

/** A required string that is not blank once trimmed. */
export const text = (max: number, min = 1) =>
  string({ minLength: min, maxLength: max, pattern: '\\S' });

export const USERNAME_PATTERN = '^[A-Za-z0-9_\\p{Script=Han}]+$';
export const PHONE_PATTERN = '^(?:1[3-9]\\d{9}|\\+\\d{8,15})$';
export const MAIL_PATTERN = '^[^\\s@]+@[^\\s@.]+(?:\\.[^\\s@.]+)+$';

const username = string({
  minLength: LIMITS.usernameMin,
  maxLength: LIMITS.usernameMax,
  pattern: USERNAME_PATTERN,
});
const password = text(LIMITS.passwordMax, LIMITS.passwordMin);
const role = Type.Literal('ADMIN');

export const RegisterTenantBody = Type.Object({
  username,
  password,
  phoneNumber: string({ pattern: PHONE_PATTERN }),
  mail: string({ maxLength: LIMITS.mailMax, pattern: MAIL_PATTERN }),
  company: text(LIMITS.companyMax),
});

export const AddUserBody = Type.Object({ username, password, role });

export const UpdateUserBody = Type.Object(
  {
    username: Type.Optional(username),
    password: Type.Optional(password),
    role: Type.Optional(role),
  },
  // Unknown fields are ignored, so "at least one property" is not enough: one of these three.
  { anyOf: [{ required: ['username'] }, { required: ['password'] }, { required: ['role'] }] },
);

export const CreateRobotBody = Type.Object({ name: text(LIMITS.robotNameMax) });

export const RuleInputSchema = Type.Object({
  ruleName: text(LIMITS.ruleNameMax),
  questions: Type.Array(text(LIMITS.questionMax), { minItems: 1, maxItems: LIMITS.questionsMax }),
  answerContentType: Type.Literal('TEXT'),
  answer: text(LIMITS.answerMax),
});

/** The batch is checked as a whole only for its shape and size; each rule is checked alone. */
export const BatchBody = Type.Array(Type.Unknown(), { maxItems: LIMITS.rulesPerBatch });

/** A whole number in a query string. */
export const decimal = string({ pattern: '^(?:0|[1-9]\\d{0,8})$' });

export const ListQuery = Type.Object({
  page: Type.Optional(decimal),
  pageSize: Type.Optional(decimal),
});

export const AskBody = Type.Object({
  userId: text(LIMITS.askUserIdMax),
  question: text(LIMITS.askQuestionMax),
  channel: Type.Literal('API'),
  questionType: Type.Literal('TEXT'),
});
