/**
 * Typed client of the console API (electron/service/console-types.ts), the editor's own routes.
 * Every call carries the per-launch token as a bearer token.
 * @module
 */
import type {
  AddUserRequest,
  RegisterTenantRequest,
  UpdateUserRequest,
  UserResult,
} from '../../electron/service/api-types';
import type {
  ConsoleCategory,
  ConsoleRobot,
  ConsoleRule,
  ConsoleWorkspace,
  DuplicateQuestion,
  RobotPatch,
  RuleEdit,
  RulePage,
  RulePatch,
  RuleQuery,
  TryResult,
} from '../../electron/service/console-types';
import { ApiError, readEnvelope } from './api-error';

/** The language of a robot's default texts. */
export type RobotLanguage = 'zh' | 'en';

/** The robot language that goes with an editor locale. */
export const robotLanguageOf = (locale: string): RobotLanguage =>
  locale.startsWith('zh') ? 'zh' : 'en';

/** Names one robot of one tenant. */
export interface RobotRef {
  tenantId: number;
  robotId: string;
}

export type ConsoleClient = ReturnType<typeof createConsoleClient>;

/**
 * The grid edits a rule's category by name in `ruleCategoryId`; the service takes a name as
 * `categoryName` (and files the rule under that category, made if new).
 */
function byCategoryName<T extends RulePatch>(
  edit: T,
): Omit<T, 'ruleCategoryId'> & { categoryName?: string } {
  const { ruleCategoryId, ...rest } = edit;
  return ruleCategoryId === undefined ? rest : { ...rest, categoryName: ruleCategoryId };
}

export function createConsoleClient(token: string, onUnauthorized: () => void) {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`/console/api${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${token}`,
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (error) {
      throw new ApiError(0, 'network-error', error instanceof Error ? error.message : 'offline');
    }
    if (response.status === 401) onUnauthorized();
    return readEnvelope<T>(response);
  }

  const robot = (ref: RobotRef) =>
    `/tenants/${ref.tenantId}/robots/${encodeURIComponent(ref.robotId)}`;

  return {
    /** Any console route, for features with clients of their own (publishing-client.ts). */
    call,
    workspace: () => call<ConsoleWorkspace>('GET', '/workspace'),
    /** `language`: the editor's; the first robot's default texts are then in it. */
    registerTenant: (body: RegisterTenantRequest, language?: RobotLanguage) =>
      call<{ tenantId: number }>('POST', '/tenants', { ...body, language }),
    addUser: (tenantId: number, body: AddUserRequest) =>
      call<UserResult>('POST', `/tenants/${tenantId}/users`, body),
    updateUser: (tenantId: number, userId: string, body: UpdateUserRequest) =>
      call<UserResult>('PUT', `/tenants/${tenantId}/users/${encodeURIComponent(userId)}`, body),
    createRobot: (tenantId: number, name: string, language?: RobotLanguage) =>
      call<ConsoleRobot>('POST', `/tenants/${tenantId}/robots`, { name, language }),
    patchRobot: (ref: RobotRef, patch: RobotPatch) =>
      call<ConsoleRobot>('PATCH', robot(ref), patch),
    rotateSecret: (ref: RobotRef) => call<ConsoleRobot>('POST', `${robot(ref)}/rotate-secret`),
    rules: (ref: RobotRef, query: RuleQuery) => {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) {
        if (value !== undefined && value !== '') params.set(key, String(value));
      }
      return call<RulePage>('GET', `${robot(ref)}/rules?${params.toString()}`);
    },
    rule: (ref: RobotRef, ruleId: string) =>
      call<ConsoleRule>('GET', `${robot(ref)}/rules/${encodeURIComponent(ruleId)}`),
    createRule: (ref: RobotRef, edit: RuleEdit) =>
      call<ConsoleRule>('POST', `${robot(ref)}/rules`, byCategoryName(edit)),
    patchRule: (ref: RobotRef, ruleId: string, patch: RulePatch) =>
      call<ConsoleRule>(
        'PATCH',
        `${robot(ref)}/rules/${encodeURIComponent(ruleId)}`,
        byCategoryName(patch),
      ),
    deleteRules: (ref: RobotRef, ruleIds: string[]) =>
      call<{ deleted: number }>('POST', `${robot(ref)}/rules/delete`, { ruleIds }),
    restoreRules: (ref: RobotRef, ruleIds: string[]) =>
      call<{ restored: number }>('POST', `${robot(ref)}/rules/restore`, { ruleIds }),
    setActive: (ref: RobotRef, ruleIds: string[], active: boolean) =>
      call<{ updated: number }>('POST', `${robot(ref)}/rules/set-active`, { ruleIds, active }),
    setCategory: (ref: RobotRef, ruleIds: string[], category: string) =>
      call<{ updated: number }>('POST', `${robot(ref)}/rules/set-category`, {
        ruleIds,
        category,
      }),
    duplicates: (ref: RobotRef) =>
      call<{ duplicates: DuplicateQuestion[] }>('GET', `${robot(ref)}/rules/duplicates`),
    categories: (ref: RobotRef) =>
      call<{ categories: ConsoleCategory[] }>('GET', `${robot(ref)}/categories`),
    tryQuestion: (ref: RobotRef, question: string) =>
      call<TryResult>('POST', `${robot(ref)}/try`, { question }),
  };
}
