/**
 * Field checks of the workspace forms, compiled from the service's schemas so that the editor
 * refuses exactly what the service would.
 * @module
 */
import {
  AddUserBody,
  CreateRobotBody,
  RegisterTenantBody,
} from '../../../electron/service/validation/schemas';
import { compileCheck } from '../../api/field-check';
import type { FieldCheck } from '../../api/field-check';

const tenant = RegisterTenantBody.properties;
const user = AddUserBody.properties;

export const TENANT_CHECKS = {
  username: compileCheck(tenant.username, 'username'),
  password: compileCheck(tenant.password, 'password'),
  phoneNumber: compileCheck(tenant.phoneNumber, 'phoneNumber'),
  mail: compileCheck(tenant.mail, 'mail'),
  company: compileCheck(tenant.company, 'company'),
} satisfies Record<string, FieldCheck>;

export const USER_CHECKS = {
  username: compileCheck(user.username, 'username'),
  password: compileCheck(user.password, 'password'),
} satisfies Record<string, FieldCheck>;

export const ROBOT_NAME_CHECK = compileCheck(CreateRobotBody.properties.name, 'name');
