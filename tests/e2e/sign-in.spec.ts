/**
 * Signing in to a team server's editor (`npm run serve -- --team`): the form, a wrong password,
 * a session that expires while the editor is open, and signing out.
 */
import { OpenApiClient } from '../../electron/client/openapi-client';
import { expect, shoot, test as base } from './fixtures';
import { E2E_CREDENTIALS, startService } from './support/service';
import type { RunningService } from './support/service';
import type { Page } from '@playwright/test';

/** A team server whose sessions end after 4 seconds unused. */
const test = base.extend<{ team: RunningService }>({
  // eslint-disable-next-line no-empty-pattern
  team: async ({}, use) => {
    const service = await startService(['--team', '--session-idle', String(4 / 60)]);
    await use(service);
    await service.stop();
  },
});

async function seed(team: RunningService): Promise<void> {
  const api = new OpenApiClient({ baseUrl: team.baseUrl, ...E2E_CREDENTIALS });
  const tenant = (company: string, username: string) =>
    api.registerTenant({
      username,
      password: 'secret123',
      phoneNumber: '13800138000',
      mail: 'admin@example.com',
      company,
    });
  await tenant('Acme', 'alice');
  await tenant('Globex', 'bob');
}

async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test.use({ locale: 'en-US' });

test('an administrator signs in and sees only their tenant; a wrong password says so', async ({
  page,
  team,
}) => {
  await seed(team);
  await page.goto(team.editorUrl);
  await expect(page.getByRole('heading', { name: 'Sign in to KB Studio' })).toBeVisible();
  await shoot(page, 'sign-in-form');
  await signIn(page, 'alice', 'not-her-password');
  await expect(page.getByRole('alert')).toHaveText('The user name or the password is wrong.');
  await page.getByLabel('Password').fill('secret123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const sidebar = page.getByRole('navigation', { name: 'Workspace' });
  await expect(sidebar.getByText('Acme')).toBeVisible();
  await expect(sidebar.getByText('Globex')).toHaveCount(0);
  await expect(page.getByTestId('signed-in-as')).toHaveText('Signed in as alice · Acme');
  // A reload of the tab keeps the session.
  await page.reload();
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
});

test('an expired session returns to the form with a message; signing out too', async ({
  page,
  team,
}) => {
  await seed(team);
  await page.goto(team.editorUrl);
  await signIn(page, 'bob', 'secret123');
  const sidebar = page.getByRole('navigation', { name: 'Workspace' });
  await expect(sidebar.getByText('Globex')).toBeVisible();
  // Left unused past the idle limit, the next call is refused: back to the form.
  await page.waitForTimeout(5_000);
  // Opening the robot asks for its rules.
  await sidebar.getByRole('button', { name: /^Default robot/ }).click();
  await expect(page.getByTestId('sign-in-reason')).toHaveText(
    'Your session has expired: sign in again.',
  );
  await shoot(page, 'sign-in-expired');
  await signIn(page, 'bob', 'secret123');
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
  const token = await page.evaluate<string | null>("sessionStorage.getItem('kb-studio.session')");
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByTestId('sign-in-reason')).toHaveText('You have signed out.');
  expect(
    await page.evaluate<string | null>("sessionStorage.getItem('kb-studio.session')"),
  ).toBeNull();
  // The session is over on the service too, not only forgotten by the tab.
  const { token: ended } = JSON.parse(token ?? '{}') as { token?: string };
  const refused = await fetch(`${team.baseUrl}/console/api/workspace`, {
    headers: { authorization: `Bearer ${ended ?? ''}` },
  });
  expect(refused.status).toBe(401);
});

/** A team server with the default session limits: nothing here waits on them. */
const patient = base.extend<{ team: RunningService }>({
  // eslint-disable-next-line no-empty-pattern
  team: async ({}, use) => {
    const service = await startService(['--team']);
    await use(service);
    await service.stop();
  },
});

patient(
  'an administrator lists their sessions, ends another one, then signs out everywhere',
  async ({ page, team }) => {
    await seed(team);
    // Another session of alice's, opened elsewhere.
    const elsewhere = await fetch(`${team.baseUrl}/console/api/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Elsewhere/1.0' },
      body: JSON.stringify({ username: 'alice', password: 'secret123' }),
    });
    const { data } = (await elsewhere.json()) as { data: { token: string } };
    await page.goto(team.editorUrl);
    await signIn(page, 'alice', 'secret123');
    await expect(page.getByTestId('signed-in-as')).toBeVisible();
    await page.getByRole('button', { name: 'Sessions' }).click();
    const dialog = page.getByTestId('sessions-dialog');
    const rows = dialog.getByTestId('session-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: 'This session' })).toHaveCount(1);
    await shoot(page, 'sessions-dialog');
    await rows
      .filter({ hasText: 'Elsewhere/1.0' })
      .getByRole('button', { name: 'Sign out', exact: true })
      .click();
    await expect(rows).toHaveCount(1);
    const ended = await fetch(`${team.baseUrl}/console/api/workspace`, {
      headers: { authorization: `Bearer ${data.token}` },
    });
    expect(ended.status).toBe(401);
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(page.getByTestId('sign-in-reason')).toHaveText('You have signed out.');
  },
);
