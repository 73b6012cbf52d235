/**
 * The desktop's team-server commands as sequences of questions and HTTP calls (docs/desktop.md,
 * "A team server"): which server (checked, remembered), signing in to it, and copying a robot
 * to it or from it with the client of electron/client/robot-copy.ts. The questions are asked
 * through `TeamUi` (forms and message boxes in the app, answers given by tests), so all of it
 * runs without Electron.
 * @module
 */
import {
  ConsoleCallError,
  copyRobot,
  signIn as signInOverHttp,
  workspaceOf,
} from '../client/robot-copy';
import type {
  ConsoleEndpoint,
  RobotCopyReport,
  SignInRequest,
  SignInResult,
} from '../client/robot-copy';
import type { ConsoleWorkspace } from '../service/console-types';
import type { TeamServerPreference } from './preferences';
import type { PromptField, PromptSpec } from './prompt-page';
import { checkTeamServerAddress } from './team-server';

export interface TeamUi {
  /** Shows a form; the values typed, or null when cancelled. */
  ask(spec: PromptSpec): Promise<Record<string, string> | null>;
  /** Asks whether to use plain http to another machine. */
  confirmHttp(origin: string, reason: string): Promise<boolean>;
  /** Tells the outcome (or a failure) in a message box. */
  inform(message: {
    title: string;
    message: string;
    detail?: string;
    error?: boolean;
  }): Promise<void>;
}

export interface TeamDeps {
  ui: TeamUi;
  /** The team server last opened (preferences.ts). */
  remembered(): TeamServerPreference | undefined;
  remember(server: TeamServerPreference): void;
  /** The sign-in route of a team server; the client's by default. */
  signIn?: (baseUrl: string, request: SignInRequest) => Promise<SignInResult>;
}

/** A signed-in session on a team server. */
export interface TeamSession extends ConsoleEndpoint {
  tenantId: number;
  company: string;
  username: string;
}

const addressField = (value?: string): PromptField => ({
  kind: 'text',
  name: 'address',
  label: 'Team server address',
  placeholder: 'https://kb.example.com',
  ...(value ? { value } : {}),
});

const signInFields: PromptField[] = [
  { kind: 'text', name: 'username', label: 'Username' },
  { kind: 'password', name: 'password', label: 'Password' },
];

/**
 * Checks a typed address, asking about plain http to another machine; remembers what is
 * accepted. A problem is returned as the sentence to show with the form again.
 */
async function acceptAddress(
  deps: TeamDeps,
  typed: string,
): Promise<TeamServerPreference | { problem: string } | null> {
  let checked = checkTeamServerAddress(typed);
  let httpConfirmed = false;
  if (!checked.ok && checked.needsHttpConfirmation) {
    const asHttp = checkTeamServerAddress(typed, true);
    if (!asHttp.ok) return { problem: asHttp.reason };
    const known = deps.remembered();
    httpConfirmed =
      (known?.origin === asHttp.origin && known.httpConfirmed) ||
      (await deps.ui.confirmHttp(asHttp.origin, checked.reason));
    if (!httpConfirmed) return null;
    checked = asHttp;
  }
  if (!checked.ok) return { problem: checked.reason };
  const server = { origin: checked.origin, httpConfirmed };
  deps.remember(server);
  return server;
}

/** "Open Team Server…": the server's origin, or null when cancelled. */
export async function chooseTeamServer(deps: TeamDeps): Promise<TeamServerPreference | null> {
  let error: string | undefined;
  for (;;) {
    const values = await deps.ui.ask({
      title: 'Open Team Server',
      intro: "The window shows the team server's editor; you sign in there.",
      ...(error ? { error } : {}),
      fields: [addressField(deps.remembered()?.origin)],
      submit: 'Open',
    });
    if (!values) return null;
    const accepted = await acceptAddress(deps, values.address ?? '');
    if (!accepted) return null;
    if ('origin' in accepted) return accepted;
    error = accepted.problem;
  }
}

/**
 * Signs in to a team server, asking which tenant when the account is in several. Null when
 * cancelled.
 */
async function signInTo(
  deps: TeamDeps,
  origin: string,
  request: SignInRequest,
): Promise<TeamSession | null> {
  const signIn = deps.signIn ?? signInOverHttp;
  let result = await signIn(origin, request);
  if (result.status === 'choose-tenant') {
    const values = await deps.ui.ask({
      title: 'Choose a tenant',
      intro: `Your account on ${origin} is in several tenants.`,
      fields: [
        {
          kind: 'select',
          name: 'tenantId',
          label: 'Tenant',
          options: result.tenants.map((t) => ({
            value: String(t.tenantId),
            label: `${t.company} (tenant ${t.tenantId})`,
          })),
        },
      ],
      submit: 'Sign In',
    });
    if (!values) return null;
    result = await signIn(origin, { ...request, tenantId: Number(values.tenantId) });
  }
  if (result.status !== 'signed-in') return null;
  return {
    baseUrl: origin,
    token: result.token,
    tenantId: result.tenantId,
    company: result.company,
    username: result.username,
  };
}

type RobotChoice = { tenantId: number; robotId: string };

function robotOptions(workspace: ConsoleWorkspace, onlyTenant?: number) {
  return workspace.tenants
    .filter((tenant) => onlyTenant === undefined || tenant.tenantId === onlyTenant)
    .flatMap((tenant) =>
      tenant.robots.map((robot) => ({
        value: `${tenant.tenantId}/${robot.robotId}`,
        label: `${tenant.company} — ${robot.name} (${robot.ruleCount} rules)`,
      })),
    );
}

function parseRobotChoice(value: string | undefined): RobotChoice {
  const [tenantId, robotId] = (value ?? '').split('/');
  return { tenantId: Number(tenantId), robotId: robotId ?? '' };
}

/** The message of a finished copy. */
export function copyReportMessage(
  report: RobotCopyReport,
  direction: 'to' | 'from',
  origin: string,
): { title: string; message: string; detail: string } {
  const where = direction === 'to' ? `to ${origin}` : `from ${origin} to this computer`;
  const lines = [
    `New robot ${report.robot.robotId}, with its own robot secret.`,
    `${report.rules} rules, ${report.categories} categories, ${report.testCases} test cases.`,
  ];
  if (report.ruleIdsChanged > 0)
    lines.push(
      `${report.ruleIdsChanged} rules got new ids there (their ids were in use, or the team server gives copied rules new ids); menus and test cases follow them.`,
    );
  const { menuEntries, testCases } = report.omitted;
  if (menuEntries + testCases > 0)
    lines.push(
      `Left out, leading to deleted rules: ${menuEntries} menu entries, ${testCases} test cases.`,
    );
  lines.push('Not copied: published versions, test runs, the question log, deleted rules.');
  return {
    title: 'Robot copied',
    message: `"${report.robot.name}" was copied ${where}.`,
    detail: lines.join('\n'),
  };
}

async function failed(deps: TeamDeps, error: unknown): Promise<null> {
  const detail =
    error instanceof ConsoleCallError || error instanceof Error ? error.message : String(error);
  await deps.ui.inform({
    title: 'Copy failed',
    message: 'The robot was not copied.',
    detail,
    error: true,
  });
  return null;
}

/** The form of a copy: the server, the account, and `extra` fields; asked again after a problem. */
async function askCopyForm(
  deps: TeamDeps,
  spec: Omit<PromptSpec, 'fields' | 'error'> & { extra: PromptField[] },
): Promise<{
  server: TeamServerPreference;
  session: TeamSession;
  values: Record<string, string>;
} | null> {
  let error: string | undefined;
  for (;;) {
    const values = await deps.ui.ask({
      title: spec.title,
      ...(spec.intro ? { intro: spec.intro } : {}),
      ...(error ? { error } : {}),
      fields: [...spec.extra, addressField(deps.remembered()?.origin), ...signInFields],
      submit: spec.submit,
    });
    if (!values) return null;
    const server = await acceptAddress(deps, values.address ?? '');
    if (!server) return null;
    if (!('origin' in server)) {
      error = server.problem;
      continue;
    }
    try {
      const session = await signInTo(deps, server.origin, {
        username: values.username ?? '',
        password: values.password ?? '',
      });
      return session ? { server, session, values } : null;
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    }
  }
}

/** "Copy Robot to Team Server…": a robot of this computer into the signed-in tenant there. */
export async function copyToTeamServer(
  deps: TeamDeps,
  local: ConsoleEndpoint,
): Promise<RobotCopyReport | null> {
  try {
    const options = robotOptions(await workspaceOf(local));
    if (options.length === 0) {
      await deps.ui.inform({
        title: 'Nothing to copy',
        message: 'This computer has no robot yet.',
      });
      return null;
    }
    const form = await askCopyForm(deps, {
      title: 'Copy Robot to Team Server',
      intro: 'The copy becomes a new robot of your tenant on the team server.',
      extra: [{ kind: 'select', name: 'robot', label: 'Robot on this computer', options }],
      submit: 'Sign In and Copy',
    });
    if (!form) return null;
    const from = parseRobotChoice(form.values.robot);
    const report = await copyRobot({
      from: { ...local, ...from },
      to: { ...form.session, tenantId: form.session.tenantId },
    });
    await deps.ui.inform(copyReportMessage(report, 'to', form.server.origin));
    return report;
  } catch (error) {
    return failed(deps, error);
  }
}

/** "Copy Robot from Team Server…": a robot of the signed-in tenant into a tenant of this computer. */
export async function copyFromTeamServer(
  deps: TeamDeps,
  local: ConsoleEndpoint,
): Promise<RobotCopyReport | null> {
  try {
    const tenants = (await workspaceOf(local)).tenants;
    if (tenants.length === 0) {
      await deps.ui.inform({
        title: 'No tenant here',
        message: 'Create a tenant in the editor first: the copy becomes one of its robots.',
      });
      return null;
    }
    const form = await askCopyForm(deps, {
      title: 'Copy Robot from Team Server',
      intro: 'Sign in to the team server; then choose the robot to copy.',
      extra: [],
      submit: 'Sign In',
    });
    if (!form) return null;
    const { session } = form;
    const options = robotOptions(await workspaceOf(session), session.tenantId);
    if (options.length === 0) {
      await deps.ui.inform({
        title: 'Nothing to copy',
        message: `Tenant ${session.company} has no robot on ${session.baseUrl}.`,
      });
      return null;
    }
    const choice = await deps.ui.ask({
      title: 'Copy Robot from Team Server',
      fields: [
        { kind: 'select', name: 'robot', label: `Robot on ${session.baseUrl}`, options },
        {
          kind: 'select',
          name: 'tenant',
          label: 'Into this computer’s tenant',
          options: tenants.map((t) => ({
            value: String(t.tenantId),
            label: `${t.company} (tenant ${t.tenantId})`,
          })),
        },
      ],
      submit: 'Copy',
    });
    if (!choice) return null;
    const report = await copyRobot({
      from: { ...session, ...parseRobotChoice(choice.robot) },
      to: { ...local, tenantId: Number(choice.tenant) },
    });
    await deps.ui.inform(copyReportMessage(report, 'from', session.baseUrl));
    return report;
  } catch (error) {
    return failed(deps, error);
  }
}
