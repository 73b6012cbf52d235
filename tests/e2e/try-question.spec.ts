import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { RulesPage } from './page-models/rules-page';
import { TryPane } from './page-models/try-pane';
import { importRules, registerTenant, sampleRules } from './support/seed';

test.use({ locale: 'en-US' });

test('tries a question and follows a candidate to its rule', async ({ page, service }) => {
  const robot = await registerTenant(service);
  await importRules(service, robot, [
    ...sampleRules(300, 'Filler'),
    {
      ruleName: 'Returns policy',
      questions: ['How do I return an item?', '怎么退货'],
      answerContentType: 'TEXT',
      answer: 'You can return any item within 7 days.',
    },
    {
      ruleName: 'Refund delay',
      questions: ['When will I get my refund?', '退款多久到账'],
      answerContentType: 'TEXT',
      answer: 'Refunds arrive within 3 working days.',
    },
  ]);
  const editor = new EditorPage(page);
  const rules = new RulesPage(page);
  const tryPane = new TryPane(page);
  await editor.open(service);
  await editor.openRobot('Acme');
  await rules.waitForRows(302);
  await tryPane.open();

  await tryPane.ask('How do I return an item?');
  await expect(tryPane.result.getByTestId('try-answer-type')).toHaveText('BESTMATCH');
  await expect(tryPane.result.getByTestId('try-answer')).toHaveText(
    'You can return any item within 7 days.',
  );
  const first = tryPane.candidates().first();
  await expect(first).toContainText('Returns policy');
  await expect(first).toContainText('How do I return an item?');
  await shoot(page, 'try-question');

  await first.click();
  await expect(rules.search).toHaveValue('Returns policy');
  const row = rules.rowNamed('Returns policy');
  await expect(row).toHaveClass(/row-located/);
  await expect(row.locator('[aria-colindex="3"]')).toBeFocused();

  await tryPane.ask('怎么退货呢');
  await expect(tryPane.history()).toHaveText(['怎么退货呢', 'How do I return an item?']);
  await tryPane.history().nth(1).getByRole('button').click();
  await expect(tryPane.result.getByTestId('try-asked')).toContainText('How do I return an item?');
});
