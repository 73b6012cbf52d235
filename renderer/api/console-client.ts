/**
 * Typed client of the console API (electron/service/console-types.ts), the editor's own routes.
 * Every call carries the editor's token (or, on a team server, the session's) as a bearer
 * token; a 401 tells `onUnauthorized` its code (`session-expired`, `not-signed-in`, …).
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
  ConsoleTrash,
  ConsoleWorkspace,
  DeletedConsoleRule,
  DuplicateQuestion,
  EditorTokenResult,
  EmbeddingStatus,
  EmbeddingTest,
  EmbeddingTestRequest,
  RobotCollisions,
  RobotPatch,
  RuleEdit,
  RulePage,
  RulePatch,
  RuleQuery,
  SmallTalkIntentView,
  TryResult,
} from '../../electron/service/console-types';
import { ApiError, readEnvelope } from './api-error';
import { questionLogCalls } from './question-log-calls';
import { ruleListParams } from './rule-list-params';

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
 * `token`: the bearer token, or where to read it at each call (the editor's token may be replaced
 * while the editor runs: api/token.ts). `onUnauthorized` is told the refusal's code and the
 * token that was refused.
 */
export function createConsoleClient(
  token: string | (() => string),
  onUnauthorized: (code: string, refused: string) => void,
) {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const bearer = typeof token === 'string' ? token : token();
    let response: Response;
    try {
      response = await fetch(`/console/api${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${bearer}`,
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (error) {
      throw new ApiError(0, 'network-error', error instanceof Error ? error.message : 'offline');
    }
    if (response.status === 401) {
      const refusal = await readEnvelope<T>(response).catch((error: unknown) => error);
      onUnauthorized(refusal instanceof ApiError ? refusal.code : 'unknown', bearer);
      throw refusal;
    }
    return readEnvelope<T>(response);
  }

  const robot = (ref: RobotRef) =>
    `/tenants/${ref.tenantId}/robots/${encodeURIComponent(ref.robotId)}`;
  const category = (ref: RobotRef, categoryId: string) =>
    `${robot(ref)}/categories/${encodeURIComponent(categoryId)}`;
  const user = (tenantId: number, userId: string) =>
    `/tenants/${tenantId}/users/${encodeURIComponent(userId)}`;

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
      call<UserResult>('PUT', user(tenantId, userId), body),
    createRobot: (tenantId: number, name: string, language?: RobotLanguage) =>
      call<ConsoleRobot>('POST', `/tenants/${tenantId}/robots`, { name, language }),
    patchRobot: (ref: RobotRef, patch: RobotPatch) =>
      call<ConsoleRobot>('PATCH', robot(ref), patch),
    rotateSecret: (ref: RobotRef) => call<ConsoleRobot>('POST', `${robot(ref)}/rotate-secret`),
    /** Replaces the editor's token: the answer is the new one (api/token.ts keeps it). */
    rotateEditorToken: () => call<EditorTokenResult>('POST', '/editor-token'),
    /** The robot's embedding model at work; null: it has none. */
    embeddingStatus: (ref: RobotRef) =>
      call<EmbeddingStatus | null>('GET', `${robot(ref)}/embedding`),
    testEmbedding: (ref: RobotRef, body: EmbeddingTestRequest) =>
      call<EmbeddingTest>('POST', `${robot(ref)}/embedding/test`, body),
    /** Sets (null: removes) the provider's API key; the robot says only whether it has one. */
    setEmbeddingKey: (ref: RobotRef, key: string | null) =>
      call<ConsoleRobot>('PUT', `${robot(ref)}/embedding/key`, { key }),
    rules: (ref: RobotRef, query: RuleQuery) =>
      call<RulePage>('GET', `${robot(ref)}/rules?${ruleListParams(query)}`),
    rule: (ref: RobotRef, ruleId: string) =>
      call<ConsoleRule>('GET', `${robot(ref)}/rules/${encodeURIComponent(ruleId)}`),
    createRule: (ref: RobotRef, edit: RuleEdit) =>
      call<ConsoleRule>('POST', `${robot(ref)}/rules`, edit),
    patchRule: (ref: RobotRef, ruleId: string, patch: RulePatch) =>
      call<ConsoleRule>('PATCH', `${robot(ref)}/rules/${encodeURIComponent(ruleId)}`, patch),
    deleteRules: (ref: RobotRef, ruleIds: string[]) =>
      call<{ deleted: number }>('POST', `${robot(ref)}/rules/delete`, { ruleIds }),
    restoreRules: (ref: RobotRef, ruleIds: string[]) =>
      call<{ restored: number }>('POST', `${robot(ref)}/rules/restore`, { ruleIds }),
    setActive: (ref: RobotRef, ruleIds: string[], active: boolean) =>
      call<{ updated: number }>('POST', `${robot(ref)}/rules/set-active`, { ruleIds, active }),
    /** Files rules under a category by its name, made if the robot has none of that name. */
    setCategoryByName: (ref: RobotRef, ruleIds: string[], category: string) =>
      call<{ updated: number }>('POST', `${robot(ref)}/rules/set-category`, {
        ruleIds,
        category,
      }),
    /** The rules of the robot's trash, most recently deleted first. */
    ruleTrash: (ref: RobotRef) =>
      call<{ rules: DeletedConsoleRule[] }>('GET', `${robot(ref)}/rules/trash?limit=1000`),
    duplicates: (ref: RobotRef) =>
      call<{ duplicates: DuplicateQuestion[] }>('GET', `${robot(ref)}/rules/duplicates`),
    /** Phrasings answered by another rule and near-duplicate rules (seconds on a large robot). */
    collisions: (ref: RobotRef) => call<RobotCollisions>('GET', `${robot(ref)}/collisions`),
    categories: (ref: RobotRef) =>
      call<{ categories: ConsoleCategory[] }>('GET', `${robot(ref)}/categories`),
    createCategory: (ref: RobotRef, name: string) =>
      call<ConsoleCategory>('POST', `${robot(ref)}/categories`, { name }),
    renameCategory: (ref: RobotRef, categoryId: string, name: string) =>
      call<ConsoleCategory>('PATCH', category(ref, categoryId), { name }),
    /** Files the rules of `from` under `into`, and deletes the categories of `from`. */
    mergeCategories: (ref: RobotRef, from: string[], into: string) =>
      call<{ moved: number }>('POST', `${robot(ref)}/categories/merge`, { from, into }),
    /** Deletes a category; its rules are kept, without a category. */
    deleteCategory: (ref: RobotRef, categoryId: string) =>
      call<{ uncategorized: number }>('DELETE', category(ref, categoryId)),
    /**
     * `asOf`: ISO 8601 with an offset; the answer as the robot would give it then. `userId`: the
     * try pane's conversation (a menu it was shown is followed up).
     */
    tryQuestion: (ref: RobotRef, question: string, asOf?: string, userId?: string) =>
      call<TryResult>('POST', `${robot(ref)}/try`, {
        question,
        ...(asOf ? { asOf } : {}),
        ...(userId ? { userId } : {}),
      }),
    /** What was deleted and can still be restored. */
    trash: () => call<ConsoleTrash>('GET', '/trash'),
    deleteTenant: (tenantId: number) =>
      call<{ purgeAfter: string }>('DELETE', `/tenants/${tenantId}`),
    restoreTenant: (tenantId: number) => call<unknown>('POST', `/tenants/${tenantId}/restore`),
    deleteRobot: (ref: RobotRef) => call<{ purgeAfter: string }>('DELETE', robot(ref)),
    restoreRobot: (ref: RobotRef) => call<unknown>('POST', `${robot(ref)}/restore`),
    deleteUser: (tenantId: number, userId: string) =>
      call<{ purgeAfter: string }>('DELETE', user(tenantId, userId)),
    restoreUser: (tenantId: number, userId: string) =>
      call<unknown>('POST', `${user(tenantId, userId)}/restore`),
    ...questionLogCalls<RobotRef>(call, robot),
    smallTalk: () => call<{ intents: SmallTalkIntentView[] }>('GET', '/small-talk'),
    /** Similar phrasings proposed for a rule that allows them (nothing is added). */
    similar: (ref: RobotRef, ruleId: string) =>
      call<{ proposals: string[] }>(
        'POST',
        `${robot(ref)}/rules/${encodeURIComponent(ruleId)}/similar`,
      ),
  };
}
