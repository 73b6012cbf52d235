import { execFileSync } from 'node:child_process';
import { expect, shoot, test } from './fixtures';
import { ApiPage } from './page-models/api-page';
import { EditorPage } from './page-models/editor-page';
import { importRules, registerTenant } from './support/seed';
import { E2E_CREDENTIALS } from './support/service';

test.use({ locale: 'en-US' });

test('shows the credentials and a signed curl command that works', async ({ page, service }) => {
  const robot = await registerTenant(service);
  await importRules(service, robot, [
    {
      ruleName: 'Hours',
      questions: ['When are you open?'],
      answerContentType: 'TEXT',
      answer: 'Every day, 9 to 6.',
    },
  ]);
  const editor = new EditorPage(page);
  const api = new ApiPage(page);
  await editor.open(service);
  await editor.openApiAccess();

  await expect(api.view).toContainText(service.baseUrl);
  await expect(api.view).toContainText(E2E_CREDENTIALS.customerId);
  await expect(api.secret('adminsecret')).not.toContainText(E2E_CREDENTIALS.adminSecret);
  await api.reveal('adminsecret');
  await expect(api.secret('adminsecret')).toHaveText(E2E_CREDENTIALS.adminSecret);
  await api.reveal('robotsecret Default robot');
  await expect(api.secret('robotsecret Default robot')).toHaveText(robot.robotSecret);
  await shoot(page, 'api-access');

  await api.view.getByRole('textbox', { name: 'Question' }).fill('When are you open?');
  // The adminkey is masked in the command as it is everywhere else, until shown.
  await expect(api.curl).toContainText('/robot/ask?adminkey=••••••••&customerId=cust-e2e');
  await expect(api.curl).not.toContainText(E2E_CREDENTIALS.adminKey);
  await api.view.getByRole('button', { name: 'Show the key' }).click();
  const command = (await api.curl.textContent()) ?? '';
  expect(command).toContain('/robot/ask?adminkey=ak-e2e');
  const output = execFileSync('bash', ['-c', command], { encoding: 'utf8' });
  expect(JSON.parse(output)).toMatchObject({
    code: '0',
    data: { answerType: 'BESTMATCH', answer: 'Every day, 9 to 6.' },
  });

  // Rotating the robot's secret asks first, in the editor's own dialog, then changes it.
  await api.view.getByRole('button', { name: 'Rotate secret' }).click();
  const asked = page.getByTestId('confirm-dialog');
  await expect(asked).toContainText('Rotate the secret of “Default robot”');
  await asked.getByRole('button', { name: 'Rotate secret' }).click();
  await expect(api.secret('robotsecret Default robot')).not.toHaveText(robot.robotSecret);
});
