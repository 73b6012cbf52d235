import { consoleClient } from '../helpers/console-client';
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { RulesPage } from './page-models/rules-page';
import { TryPane } from './page-models/try-pane';
import { apiNamesIn } from '../unit/renderer/api-names';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';
import { importRules, registerTenant, sampleRules } from './support/seed';
import type { SeededRobot } from './support/seed';
import type { RunningService } from './support/service';

const RULES = [
  {
    ruleName: 'Returns policy',
    questions: ['How do I return an item?', '怎么退货'],
    answerContentType: 'TEXT' as const,
    answer: 'You can return any item within 7 days.',
  },
  {
    ruleName: 'Refund delay',
    questions: ['When will I get my refund?', '退款多久到账'],
    answerContentType: 'TEXT' as const,
    answer: 'Refunds arrive within 3 working days.',
  },
  {
    ruleName: 'Old returns',
    questions: ['Can I send it back by post?'],
    answerContentType: 'TEXT' as const,
    answer: 'Send it to our warehouse.',
  },
  {
    ruleName: 'Winter sale',
    questions: ['Is there a winter sale?'],
    answerContentType: 'TEXT' as const,
    answer: 'From December to January.',
  },
  {
    ruleName: 'Gift cards',
    questions: Array.from({ length: 10 }, (_, i) => `gift card balance question ${i + 1}`),
    answerContentType: 'TEXT' as const,
    answer: 'Gift cards are valid for a year.',
  },
];

const DATE = '\u0000';
/** A message with its date left open. */
function withAnyDate(message: string): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${message.split(DATE).map(escape).join('.+')}$`);
}

/** Seeds the rules; "Old returns" switched off and "Winter sale" past its end. */
async function seed(service: RunningService): Promise<SeededRobot> {
  const robot = await registerTenant(service);
  const { succeed } = await importRules(service, robot, [...sampleRules(300, 'Filler'), ...RULES]);
  const api = consoleClient(service.baseUrl, service.token);
  const base = `/tenants/${robot.tenantId}/robots/${robot.robotId}`;
  const id = (name: string) => succeed.find((rule) => rule.ruleName === name)?.ruleId ?? '';
  await api.ok('PATCH', `${base}/rules/${id('Old returns')}`, { active: false });
  await api.ok('PATCH', `${base}/rules/${id('Winter sale')}`, {
    effectBeignDate: '2020-12-01T00:00:00+08:00',
    effectEndDate: '2021-01-31T23:59:59+08:00',
  });
  return robot;
}

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);

    test('shows the answer as the customer gets it, with the mechanics one click away', async ({
      page,
      service,
    }) => {
      const robot = await seed(service);
      const editor = new EditorPage(page);
      const rules = new RulesPage(page, lang);
      const tryPane = new TryPane(page, lang);
      await editor.open(service);
      await editor.openRobot('Acme');
      await rules.waitForRows(305);
      await tryPane.open();

      await tryPane.ask('How do I return an item?');
      await expect(tryPane.answer).toHaveText('You can return any item within 7 days.');
      await expect(tryPane.why).toHaveText(
        t('try.answeredBy', { rule: 'Returns policy', score: 1 }),
      );
      // Nothing of the API in the default view.
      await expect(tryPane.details.locator('pre')).toBeHidden();
      const shown = await tryPane.pane.innerText();
      expect(apiNamesIn(shown)).toEqual([]);
      await shoot(page, `try-question-${lang}`);
      // The response and the score parts, one click away.
      await tryPane.openDetails();
      await expect(tryPane.details.locator('pre')).toContainText('"answerType": "BESTMATCH"');
      await expect(tryPane.details.getByRole('table')).toContainText('naiveBayes');
      await shoot(page, `try-details-${lang}`);
      await tryPane.openDetails();
      await expect(tryPane.details.locator('pre')).toBeHidden();

      // No rule close enough: the fallback text.
      await tryPane.ask('zzzz qqqq xxxx');
      await expect(tryPane.why).toHaveText(t('try.fallback'));
      await expect(tryPane.answer).toContainText('Sorry');

      // Not sure enough: the list the customer picks from.
      const api = consoleClient(service.baseUrl, service.token);
      await api.ok('PATCH', `/tenants/${robot.tenantId}/robots/${robot.robotId}`, {
        settings: { bestmatchThreshold: 0.999, recommendThreshold: 0.01 },
      });
      await tryPane.ask('How can I return my item');
      await expect(tryPane.why).toHaveText(t('try.suggested'));
      await expect(
        tryPane.answer.getByRole('list', { name: t('try.suggestions') }).getByRole('listitem'),
      ).toContainText(['How do I return an item?']);
      expect(apiNamesIn(await tryPane.pane.innerText())).toEqual([]);
      await shoot(page, `try-recommend-${lang}`);
    });

    test('says when the rule with this question was skipped', async ({ page, service }) => {
      await seed(service);
      const editor = new EditorPage(page);
      const tryPane = new TryPane(page, lang);
      await editor.open(service);
      await editor.openRobot('Acme');
      await tryPane.open();

      await tryPane.ask('Can I send it back by post?');
      await expect(tryPane.verdict.getByTestId('try-skipped')).toHaveText(
        t('try.skipped.inactive', { rule: 'Old returns' }),
      );
      await tryPane.ask('is there a winter sale');
      await expect(tryPane.verdict.getByTestId('try-skipped')).toContainText('Winter sale');
      await expect(tryPane.verdict.getByTestId('try-skipped')).toContainText('2021');
      await shoot(page, `try-skipped-${lang}`);
    });

    test('asks as of a date: the rules in effect then answer, the others are said skipped', async ({
      page,
      service,
    }) => {
      await seed(service);
      const editor = new EditorPage(page);
      const tryPane = new TryPane(page, lang);
      await editor.open(service);
      await editor.openRobot('Acme');
      await tryPane.open();

      // Now, the winter sale of 2020 is over.
      await tryPane.ask('Is there a winter sale?');
      await expect(tryPane.verdict.getByTestId('try-skipped')).toContainText('Winter sale');
      await expect(tryPane.result.getByTestId('try-as-of')).toHaveCount(0);

      // Inside its window: it answers, and the result says when it was asked for.
      await tryPane.setAsOf('2021-01-10T12:00');
      await tryPane.ask('Is there a winter sale?');
      await expect(tryPane.result.getByTestId('try-as-of')).toContainText('2021');
      await expect(tryPane.answer).toHaveText('From December to January.');
      await expect(tryPane.verdict.getByTestId('try-skipped')).toHaveCount(0);
      await shoot(page, `try-as-of-${lang}`);

      // Before its window: skipped, as scheduled.
      await tryPane.setAsOf('2020-06-01T12:00');
      await tryPane.ask('Is there a winter sale?');
      await expect(tryPane.verdict.getByTestId('try-skipped')).toHaveText(
        withAnyDate(t('try.skipped.scheduled', { rule: 'Winter sale', date: DATE })),
      );
      await expect(tryPane.verdict.getByTestId('try-skipped')).toContainText('2020');
      expect(apiNamesIn(await tryPane.pane.innerText())).toEqual([]);

      // Back to now.
      await tryPane.setAsOf(null);
      await tryPane.ask('Is there a winter sale?');
      await expect(tryPane.result.getByTestId('try-as-of')).toHaveCount(0);
      await expect(tryPane.verdict.getByTestId('try-skipped')).toHaveText(
        withAnyDate(t('try.skipped.expired', { rule: 'Winter sale', date: DATE })),
      );
    });

    test('adds the question as a phrasing of a candidate, within the limit of 10', async ({
      page,
      service,
    }) => {
      await seed(service);
      const editor = new EditorPage(page);
      const rules = new RulesPage(page, lang);
      const tryPane = new TryPane(page, lang);
      await editor.open(service);
      await editor.openRobot('Acme');
      await tryPane.open();

      const question = 'When does my refund arrive';
      await tryPane.ask(question);
      await expect(tryPane.candidate('Refund delay')).toBeVisible();
      await tryPane.addPhrasing('Refund delay', question);
      await expect(tryPane.candidate('Refund delay')).toContainText(
        t('try.added', { question, rule: 'Refund delay' }),
      );
      // Asked again: now the rule's own phrasing.
      await expect(tryPane.why).toHaveText(t('try.answeredBy', { rule: 'Refund delay', score: 1 }));
      await rules.search.fill('Refund delay');
      await rules.waitForRows(1);
      await expect(rules.cell(0, 'questions')).toContainText(question);
      // One undo step takes it back.
      await rules.clickToolbar(t('rules.undo'));
      await expect(rules.cell(0, 'questions')).not.toContainText(question);

      // A rule with 10 phrasings takes no more, and says so.
      const another = 'gift card balance question eleven';
      await tryPane.ask(another);
      await tryPane.addPhrasing('Gift cards', another);
      await expect(tryPane.candidate('Gift cards').getByRole('alert')).toHaveText(
        t('try.full', { rule: 'Gift cards', count: 10 }),
      );
      await shoot(page, `try-phrasing-full-${lang}`);
    });
  });
}

test('follows a candidate to its rule, and keeps a history', async ({ page, service }) => {
  await seed(service);
  const editor = new EditorPage(page);
  const rules = new RulesPage(page);
  const tryPane = new TryPane(page);
  await editor.open(service);
  await editor.openRobot('Acme');
  await rules.waitForRows(305);
  await tryPane.open();

  await tryPane.ask('How do I return an item?');
  const first = tryPane.candidates().first();
  await expect(first).toContainText('Returns policy');
  await expect(first).toContainText('How do I return an item?');
  await first.getByRole('button', { name: 'Returns policy', exact: true }).click();
  await expect(rules.search).toHaveValue('Returns policy');
  const row = rules.rowNamed('Returns policy');
  await expect(row).toHaveClass(/row-located/);
  await expect(row.locator('[aria-colindex="3"]')).toBeFocused();

  await tryPane.ask('怎么退货呢');
  await expect(tryPane.history()).toHaveText(['怎么退货呢', 'How do I return an item?']);
  await tryPane.history().nth(1).getByRole('button').click();
  await expect(tryPane.result.getByTestId('try-asked')).toContainText('How do I return an item?');
});
