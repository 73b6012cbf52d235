/**
 * "What changes for customers" on the publish page: customers' questions replayed against the
 * published version and the draft, the four kinds with their asks, an example's links to its rule
 * and to the try pane, and the impact gate refusing a publish until confirmed.
 */
import { OpenApiClient } from '../../electron/client/openapi-client';
import { consoleClient } from '../helpers/console-client';
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';
import { importRules, registerTenant } from './support/seed';
import { E2E_CREDENTIALS } from './support/service';
import type { RunningService } from './support/service';

const RULES = [
  {
    ruleName: 'Returns policy',
    questions: ['How do I return an item?'],
    answerContentType: 'TEXT' as const,
    answer: 'You can return any item within 7 days.',
  },
  {
    ruleName: 'Opening hours',
    questions: ['When do you open?'],
    answerContentType: 'TEXT' as const,
    answer: 'From 9 to 6.',
  },
];

/**
 * A published v1 whose draft changes the returns answer, after 3 returns questions and one
 * opening-hours question from a customer: the replay finds 3 of 4 asks answered otherwise.
 */
async function returnsAnswerChanged(service: RunningService): Promise<void> {
  const robot = await registerTenant(service);
  const imported = await importRules(service, robot, RULES);
  const returns = imported.succeed.find((r) => r.ruleName === 'Returns policy');
  const api = consoleClient(service.baseUrl, service.token);
  const R = `/tenants/${robot.tenantId}/robots/${robot.robotId}`;
  await api.ok('POST', `${R}/versions`, { note: 'v1', author: 'api' });
  const customer = new OpenApiClient({ baseUrl: service.baseUrl, ...E2E_CREDENTIALS }).robot(
    robot.tenantId,
    robot.robotId,
    robot.robotSecret,
  );
  for (let i = 0; i < 3; i++) await customer.ask('How do I return an item?');
  await customer.ask('When do you open?');
  await api.ok('PATCH', `${R}/rules/${returns?.ruleId}`, {
    answer: 'You can return any item within 15 days.',
  });
}

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);

    test('the panel counts what changes, links to the rule and the try pane, gates a publish', async ({
      page,
      service,
    }) => {
      // The draft changes the returns answer: 3 of 4 asks get another answer.
      await returnsAnswerChanged(service);

      const editor = new EditorPage(page);
      await editor.open(service);
      await editor.openRobot('Acme');
      await editor.openPublishing();
      const panel = page.getByTestId('impact');
      await panel.getByRole('button', { name: t('impact.run') }).click();
      await expect(panel.getByTestId('impact-summary')).toContainText(
        t('impact.summary', { changed: 3, asks: 4, days: 7, share: '75%', questions: 1 }),
      );
      await expect(panel.getByTestId('impact-otherAnswer')).toContainText('75%');
      await expect(panel).toContainText('How do I return an item?');
      await panel.scrollIntoViewIfNeeded();
      await shoot(page, `publish-impact-${lang}`);

      // The gate: more than 50% refuses the publish, until confirmed.
      const gate = panel.getByTestId('impact-gate');
      await gate.getByRole('checkbox').check();
      await gate.getByRole('spinbutton').fill('50');
      await gate.getByRole('button', { name: t('impact.gateSave') }).click();
      await expect(panel).toContainText(t('impact.gateSaved'));
      const view = page.getByTestId('publishing-page');
      await view.getByRole('button', { name: t('publishing.check') }).click();
      await view
        .getByTestId('publish-gate')
        .getByRole('button', { name: t('publishing.publish'), exact: true })
        .click();
      await expect(view).toContainText(
        t('errors.publishImpactTooLarge', { percent: 75, limit: 50 }),
      );
      await shoot(page, `publish-impact-refused-${lang}`);
      await view.getByRole('checkbox', { name: t('publishing.confirmImpact') }).check();
      await view
        .getByTestId('publish-gate')
        .getByRole('button', { name: t('publishing.publish'), exact: true })
        .click();
      await expect(view.getByTestId('version-history').getByRole('row')).toHaveCount(3);

      // Between the two versions now; an example opens the try pane on its question.
      await panel.getByRole('combobox', { name: t('impact.from') }).selectOption('1');
      await panel.getByRole('combobox', { name: t('impact.to') }).selectOption('2');
      await panel.getByRole('button', { name: t('impact.run') }).click();
      await expect(panel.getByTestId('impact-otherAnswer')).toContainText('75%');
      await panel
        .getByRole('button', { name: t('impact.try'), exact: true })
        .first()
        .click();
      const tryPane = page.getByTestId('try-pane');
      await expect(tryPane).toContainText('You can return any item within 15 days.');
      await shoot(page, `publish-impact-try-${lang}`);
    });

    test('a job its node does not know (another node of a team server) is asked in one request', async ({
      page,
      service,
    }) => {
      await returnsAnswerChanged(service);
      const editor = new EditorPage(page);
      await editor.open(service);
      await editor.openRobot('Acme');
      await editor.openPublishing();
      const panel = page.getByTestId('impact');
      // The job is started for real; its start answers "running" and every poll reaches a node
      // that does not know it, as behind a load balancer.
      await page.route('**/console/api/**/versions/impact/jobs', async (route) => {
        const started = await route.fetch();
        const body = (await started.json()) as { data: { jobId: string } };
        const running = { jobId: body.data.jobId, state: 'running', done: 0, total: 1 };
        await route.fulfill({ json: { code: '0', msg: 'success', data: running } });
      });
      await page.route('**/console/api/**/versions/impact/jobs/*', (route) =>
        route.fulfill({
          status: 404,
          json: { code: 'impact-job-not-found', msg: 'Impact preview job 1 is not known.' },
        }),
      );
      await panel.getByRole('button', { name: t('impact.run') }).click();
      await expect(panel.getByTestId('impact-summary')).toContainText(
        t('impact.summary', { changed: 3, asks: 4, days: 7, share: '75%', questions: 1 }),
      );
      await expect(panel.getByRole('button', { name: t('impact.run') })).toBeEnabled();
    });

    test('a long replay shows its progress; a replay the robot changed under says so', async ({
      page,
      service,
    }) => {
      const robot = await registerTenant(service);
      await importRules(service, robot, RULES);
      const api = consoleClient(service.baseUrl, service.token);
      const R = `/tenants/${robot.tenantId}/robots/${robot.robotId}`;
      await api.ok('POST', `${R}/versions`, { note: 'v1', author: 'api' });
      const editor = new EditorPage(page);
      await editor.open(service);
      await editor.openRobot('Acme');
      await editor.openPublishing();
      const panel = page.getByTestId('impact');

      // The job's polls answer as a long replay would: under way (3 of 7), held until seen,
      // then cancelled (the robot changed: impact-jobs.ts, tested in tests/unit/publishing).
      let polls = 0;
      let release: () => void = () => undefined;
      const seen = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/console/api/**/versions/impact/jobs/*', async (route) => {
        polls++;
        const job =
          polls === 1
            ? { jobId: 'x', state: 'running', done: 3, total: 7 }
            : { jobId: 'x', state: 'cancelled', done: 5, total: 7, message: 'changed' };
        if (polls > 1) await seen;
        await route.fulfill({ json: { code: '0', msg: 'success', data: job } });
      });
      await panel.getByRole('button', { name: t('impact.run') }).click();
      const progress = panel.getByTestId('impact-progress');
      await expect(progress).toContainText(t('impact.progress', { done: 3, total: 7 }));
      await expect(progress.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '3');
      await expect(panel.getByRole('button', { name: t('impact.running') })).toBeDisabled();
      await shoot(page, `publish-impact-progress-${lang}`);
      release();
      await expect(panel).toContainText(t('impact.cancelled'));
      await expect(progress).toHaveCount(0);
      await expect(panel.getByRole('button', { name: t('impact.run') })).toBeEnabled();
    });
  });
}
