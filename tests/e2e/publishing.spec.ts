/**
 * Publishing in the editor: keep a try-pane question as a test, a rule edited so that it fails,
 * the gate refusing until confirmed, history, diff, a test run, rollback, the threshold chart.
 */
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { ConsoleWorkspace } from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { TryPane } from './page-models/try-pane';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';
import { importRules, registerTenant } from './support/seed';
import { E2E_CREDENTIALS } from './support/service';

const RULES = [
  {
    ruleName: 'Returns policy',
    questions: ['How do I return an item?', 'Can I send my order back?'],
    answerContentType: 'TEXT' as const,
    answer: 'You can return any item within 7 days.',
  },
  {
    ruleName: 'Refund delay',
    questions: ['When will I get my refund?'],
    answerContentType: 'TEXT' as const,
    answer: 'Refunds arrive within 3 working days.',
  },
  {
    ruleName: 'Opening hours',
    questions: ['When do you open?'],
    answerContentType: 'TEXT' as const,
    answer: 'From 9 to 6.',
  },
];

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);

    test('a kept test, a failing edit, the gate, history, diff, a run, rollback, thresholds', async ({
      page,
      service,
    }) => {
      const robot = await registerTenant(service);
      const imported = await importRules(service, robot, RULES);
      const returns = imported.succeed.find((r) => r.ruleName === 'Returns policy');
      const api = consoleClient(service.baseUrl, service.token);
      const R = `/tenants/${robot.tenantId}/robots/${robot.robotId}`;
      const ask = async (question: string) =>
        new OpenApiClient({ baseUrl: service.baseUrl, ...E2E_CREDENTIALS })
          .robot(robot.tenantId, robot.robotId, robot.robotSecret)
          .ask(question);

      const editor = new EditorPage(page);
      await editor.open(service);
      await editor.openRobot('Acme');

      // Review mode, from the publishing page: asked first, the switch publishes the draft as
      // version 1.
      const view = await editor.openPublishing();
      await view.getByRole('combobox', { name: t('publishing.modeLabel') }).selectOption('review');
      await page
        .getByTestId('mode-switch-dialog')
        .getByRole('button', { name: t('publishing.switchConfirm.review') })
        .click();
      const history = view.getByTestId('version-history');
      await expect(history.getByRole('row')).toHaveCount(2);

      // Keep a try-pane question as a test, in one click.
      await editor.openRobot('Acme');
      const tryPane = new TryPane(page, lang);
      await tryPane.open();
      await tryPane.ask('How do I return an item?');
      await tryPane.pane.getByRole('button', { name: t('tests.keep') }).click();
      await expect(tryPane.pane).toContainText(t('tests.kept'));

      // The rule loses the phrasing the test asks (saved in the draft only).
      await api.ok('PATCH', `${R}/rules/${returns?.ruleId}`, {
        questions: ['Where is the returns form?'],
      });

      // The try pane shows the published version's answer beside the draft's.
      await tryPane.ask('Can I send my order back?');
      await expect(tryPane.pane.getByTestId('published-answer')).toContainText(
        RULES[0]?.answer ?? '',
      );

      await editor.openPublishing();
      await view.getByRole('textbox', { name: t('publishing.note') }).fill('new returns wording');
      await view.getByRole('button', { name: t('publishing.check') }).click();
      const gate = view.getByTestId('publish-gate');
      await expect(gate).toContainText('How do I return an item?');
      await expect(gate).toContainText(t('tests.nowFailing'));
      const publish = gate.getByRole('button', { name: t('publishing.publish'), exact: true });
      await expect(publish).toBeDisabled();
      await gate.getByRole('checkbox').check();
      await publish.click();
      await expect(history.getByRole('row')).toHaveCount(3);
      await expect(history).toContainText(t('publishing.publishedOverFailures', { count: 1 }));
      await expect
        .poll(async () => (await ask('How do I return an item?')).answer)
        .not.toBe(RULES[0]?.answer);
      await shoot(page, `publishing-history-${lang}`);

      await history
        .getByRole('button', { name: t('publishing.diffPrevious') })
        .first()
        .click();
      const diff = view.getByTestId('diff-view').last();
      await expect(diff).toContainText('Where is the returns form?');
      await expect(diff).toContainText(t('publishing.questionRemoved'));
      await diff.scrollIntoViewIfNeeded();
      await shoot(page, `publishing-diff-${lang}`);

      // A test run of the draft shows the failure and what came instead.
      await view.getByRole('tab', { name: t('publishing.tab.tests') }).click();
      const run = view.getByTestId('test-run');
      await run.getByRole('button', { name: t('tests.runAll') }).click();
      await expect(run.getByTestId('run-summary')).toContainText(
        t('tests.summary', { passed: 0, failed: 1, nowFailing: 0, nowPassing: 0, ms: 0 }).split(
          ' ',
        )[0] as string,
      );
      await expect(
        run.getByRole('row').filter({ hasText: 'How do I return an item?' }),
      ).toContainText(t('tests.status.failed'));
      await shoot(page, `publishing-test-run-${lang}`);

      // Roll back to version 1 (asked in the editor's own dialog): a new version, the answer is
      // back.
      await view.getByRole('tab', { name: t('publishing.tab.versions') }).click();
      await history
        .getByRole('row')
        .filter({ hasText: /^v1/ })
        .getByRole('button', { name: t('publishing.rollback') })
        .click();
      await page
        .getByTestId('rollback-dialog')
        .getByRole('button', { name: t('publishing.rollback') })
        .click();
      await expect(history.getByRole('row')).toHaveCount(4);
      await expect(history).toContainText(t('publishing.rolledBackTo', { version: 1 }));
      await expect
        .poll(async () => (await ask('How do I return an item?')).answer)
        .toBe(RULES[0]?.answer);

      // More cases, in the words of users, for the chart to show a trade-off.
      await api.ok('POST', `${R}/test-cases`, {
        cases: [
          { question: 'return an item', expect: 'rule', ruleName: 'Returns policy' },
          { question: 'send my order back', expect: 'rule', ruleName: 'Returns policy' },
          { question: 'when is my refund coming', expect: 'rule', ruleName: 'Refund delay' },
          { question: 'what time do you open', expect: 'rule', ruleName: 'Opening hours' },
          { question: 'is it raining today', expect: 'fallback' },
        ],
      });
      // The threshold chart of the test set; a point picked is saved as the threshold.
      await view.getByRole('tab', { name: t('publishing.tab.thresholds') }).click();
      const thresholds = view.getByTestId('threshold-panel');
      await expect(thresholds.locator('canvas')).toHaveCount(2);
      await expect(thresholds).toContainText(
        t('thresholds.current', { cases: 6, bestmatch: 0.94, recommend: 0.1 }).split(
          ';',
        )[0] as string,
      );
      await shoot(page, `publishing-thresholds-${lang}`);
      // Picked from the BESTMATCH chart, saved as the robot's threshold.
      await thresholds.locator('canvas').first().click();
      await thresholds.getByRole('button', { name: t('thresholds.save') }).click();
      await expect
        .poll(async () => {
          const workspace = await api.ok<ConsoleWorkspace>('GET', '/workspace');
          const tenant = workspace.tenants.find((x) => x.tenantId === robot.tenantId);
          return tenant?.robots[0]?.settings.bestmatchThreshold;
        })
        .not.toBe(0.94);
    });
  });
}
