/**
 * Schemas of the routes' path parameters, so that handlers get them typed (Fastify's TypeBox
 * type provider) instead of casting `request.params`. They take any text: the router has decoded
 * each parameter and bounded its length, and what a parameter names is checked where it is used
 * (`parseTenantId`, the store's lookups: 404 when it names nothing).
 * @module
 */
import { Type } from '@sinclair/typebox';
import { string } from './schemas';

const segment = string();

export const TenantPath = Type.Object({ tenantId: segment });

export const UserPath = Type.Object({ tenantId: segment, userId: segment });

export const RobotPath = Type.Object({ tenantId: segment, robotId: segment });

export const RulePath = Type.Object({ ...RobotPath.properties, ruleId: segment });

export const CategoryPath = Type.Object({ ...RobotPath.properties, categoryId: segment });

export const VersionPath = Type.Object({ ...RobotPath.properties, version: segment });

export const TestCasePath = Type.Object({ ...RobotPath.properties, caseId: segment });

export const TestRunPath = Type.Object({ ...RobotPath.properties, runId: segment });

export const RunJobPath = Type.Object({ ...RobotPath.properties, jobId: segment });
