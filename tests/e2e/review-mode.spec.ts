/**
 * Review mode without surprises (issue 29), in the editor: the switch asks first and is credited
 * to the administrator chosen; unpublished changes are marked in the grid and counted in the
 * sidebar; settings say they are live; the diff marks the changed words; the draft can be
 * discarded; a rollback lists the unpublished edits it replaces and leaves nothing stale; its
 * rules are found by the grid's search and the inbox's rule picker, whose message says when an
 * addition takes effect.
 */
import { OpenApiClient } from '../../electron/client/openapi-client';
import type { RulePage } from '../../electron/service/console-types';
import { consoleClient } from '../helpers/console-client';
import { expect, shoot, test } from './fixtures';
import { EditorPage } from './page-models/editor-page';
import { RulesPage } from './page-models/rules-page';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';
import { importRules, registerTenant } from './support/seed';
import { E2E_CREDENTIALS } from './support/service';

const RULES = [
  {
    ruleName: '服装退货政策',
    questions: ['服装怎么退货', '衣服可以退吗'],
    answer: '服装支持7天无理由退货，运费由买家承担。',
  },
  { ruleName: '鞋靴退货政策', questions: ['鞋子怎么退货'], answer: '鞋靴支持7天无理由退货。' },
  { ruleName: '发票', questions: ['能开发票吗'], answer: '可以开电子发票。' },
].map((rule) => ({ ...rule, answerContentType: 'TEXT' as const }));

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);

    test('switch, marks and counts, live settings, word diff, discard, rollback, inbox', async ({
      page,
      service,
    }) => {
      test.setTimeout(180_000);
      const seeded = await registerTenant(service);
      await importRules(service, seeded, RULES);
      const api = consoleClient(service.baseUrl, service.token);
      const R = `/tenants/${seeded.tenantId}/robots/${seeded.robotId}`;
      const idOf = async (name: string) =>
        (await api.ok<RulePage>('GET', `${R}/rules?q=${encodeURIComponent(name)}`)).rows[0]
          ?.ruleId ?? '';
      const clothes = await idOf('服装退货政策');
      const shoes = await idOf('鞋靴退货政策');
      // A question the robot cannot answer, for the inbox.
      const robot = new OpenApiClient({ baseUrl: service.baseUrl, ...E2E_CREDENTIALS }).robot(
        seeded.tenantId,
        seeded.robotId,
        seeded.robotSecret,
      );
      for (const user of ['a', 'b']) await robot.ask('运费险怎么理赔', user);

      const editor = new EditorPage(page);
      await editor.open(service);
      await editor.openRobot('Acme');
      const publishingLink = editor.sidebar.getByRole('button', { name: t('robot.publishing') });
      const view = page.getByTestId('publishing-page');
      const history = view.getByTestId('version-history');

      // The switch asks first, says that the draft becomes v1, and credits who is chosen.
      await publishingLink.click();
      await view.getByRole('combobox', { name: t('publishing.modeLabel') }).selectOption('review');
      const switching = page.getByTestId('mode-switch-dialog');
      await expect(switching).toContainText(t('publishing.switchPublishes', { version: 1 }));
      await expect(switching).toContainText(t('publishing.settingsLive'));
      await expect(switching.getByRole('combobox', { name: t('publishing.author') })).toHaveValue(
        'admin_01',
      );
      await shoot(page, `review-switch-dialog-${lang}`);
      await switching.getByRole('button', { name: t('publishing.switchConfirm.review') }).click();
      await expect(history.getByRole('row')).toHaveCount(2);
      const first = history.getByRole('row').filter({ hasText: /^v1/ });
      await expect(first).toContainText(t('publishing.modeSwitched.review'));
      await expect(first).toContainText('admin_01');
      await expect(history).not.toContainText('publish mode');
      await expect(view.getByTestId('settings-live-note')).toBeVisible();

      // An unpublished change: marked in the grid, counted in the sidebar.
      await api.ok('PATCH', `${R}/rules/${clothes}`, {
        answer: '服装支持15天无理由退货，运费由卖家承担。',
      });
      await editor.openRobot('Acme');
      const rules = new RulesPage(page, lang);
      await rules.waitForRows(3);
      const marks = rules.grid.getByTestId('unpublished-mark');
      await expect(marks).toHaveCount(1);
      await expect(rules.rowNamed('服装退货政策').getByTestId('unpublished-mark')).toHaveAttribute(
        'aria-label',
        t('rules.unpublished.changed'),
      );
      await expect(editor.sidebar.getByTestId('unpublished-count')).toHaveText('1');
      await shoot(page, `review-unpublished-marks-${lang}`);

      // The settings page says its changes are live, where the editor looks.
      await editor.sidebar.getByRole('button', { name: t('robot.settings') }).click();
      const note = page.getByTestId('settings-live-note');
      await expect(note).toHaveText(t('settings.liveInReview'));
      await shoot(page, `review-settings-live-${lang}`);

      // The preview's diff marks the words that changed.
      await publishingLink.click();
      await view.getByRole('button', { name: t('publishing.check') }).click();
      const gate = view.getByTestId('publish-gate');
      const diff = gate.getByTestId('diff-view');
      await expect(diff.locator('del.diff-word')).toHaveText(['7', '买']);
      await expect(diff.locator('ins.diff-word')).toHaveText(['15', '卖']);
      await expect(diff).toContainText(t('rules.col.answer'));
      await diff.scrollIntoViewIfNeeded();
      await shoot(page, `review-word-diff-${lang}`);

      // Discard the draft: asked, listing what goes; back to v1, nothing left to publish.
      await view.getByRole('button', { name: t('publishing.discard') }).click();
      const discarding = page.getByTestId('discard-dialog');
      await expect(discarding.getByTestId('unpublished-list')).toContainText('服装退货政策');
      await shoot(page, `review-discard-dialog-${lang}`);
      await discarding.getByRole('button', { name: t('publishing.discard') }).click();
      await expect(page.getByText(t('publishing.discarded', { version: 1 }))).toBeVisible();
      await expect(gate).toBeHidden();
      await expect(view.getByText(t('publishing.nothingToPublish'))).toBeVisible();
      await expect(view.getByRole('button', { name: t('publishing.check') })).toBeDisabled();
      await expect(editor.sidebar.getByTestId('unpublished-count')).toBeHidden();
      const draft = await api.ok<{ result: { answer: string } }>('POST', `${R}/try`, {
        question: '服装怎么退货',
      });
      expect(draft.result.answer).toBe(RULES[0]?.answer);

      // v2 changes the answer; then an unpublished edit of another rule, and a preview open.
      await api.ok('PATCH', `${R}/rules/${clothes}`, {
        answer: '服装支持15天无理由退货，运费由卖家承担。',
      });
      await api.ok('POST', `${R}/versions`, { note: '7天改为15天', author: 'admin_01' });
      await api.ok('PATCH', `${R}/rules/${shoes}`, { answer: '鞋靴支持30天无理由退货。' });
      await page.reload();
      await expect(history.getByRole('row')).toHaveCount(3);
      await view.getByRole('button', { name: t('publishing.check') }).click();
      await expect(gate).toBeVisible();

      // The rollback lists the unpublished edit it replaces before it runs.
      await history
        .getByRole('row')
        .filter({ hasText: /^v1/ })
        .getByRole('button', { name: t('publishing.rollback') })
        .click();
      const rolling = page.getByTestId('rollback-dialog');
      await expect(rolling).toContainText(t('publishing.rollbackReplaces', { count: 1 }));
      await expect(rolling.getByTestId('unpublished-list')).toContainText('鞋靴退货政策');
      await shoot(page, `review-rollback-dialog-${lang}`);
      await rolling.getByRole('button', { name: t('publishing.rollback') }).click();

      // No stale diff, no publish button that answers "nothing to publish"; counts as the diff.
      await expect(history.getByRole('row')).toHaveCount(4);
      const third = history.getByRole('row').filter({ hasText: /^v3/ });
      await expect(third).toContainText(t('publishing.rolledBackTo', { version: 1 }));
      await expect(third).toContainText('+0 ~1 −0');
      await expect(gate).toBeHidden();
      await expect(view.getByText(t('publishing.nothingToPublish'))).toBeVisible();
      await expect(view.getByRole('button', { name: t('publishing.check') })).toBeDisabled();
      await third.getByRole('button', { name: t('publishing.diffPrevious') }).click();
      const changes = view.getByTestId('diff-view').last();
      await expect(changes).toContainText(
        t('publishing.diffCounts', { added: 0, changed: 1, removed: 0 }),
      );
      await expect(changes.locator('ins.diff-word')).toHaveText(['7', '买']);
      await shoot(page, `review-after-rollback-${lang}`);

      // The rules the rollback wrote back are found by the grid's search.
      await editor.openRobot('Acme');
      await rules.search.fill('服装退货政策');
      await rules.waitForRows(1);
      await expect(rules.rowNamed('服装退货政策')).toBeVisible();

      // And by the inbox's rule picker; the addition takes effect at the next publish.
      await editor.sidebar.getByRole('button', { name: t('inbox.title') }).click();
      const group = page.getByTestId('inbox-group').filter({ hasText: '运费险怎么理赔' });
      await group.getByRole('button', { name: t('inbox.addToOther') }).click();
      await group.getByRole('searchbox', { name: t('inbox.findRule') }).fill('服装退货');
      await group.getByRole('button', { name: '服装退货政策' }).click();
      await expect(
        page.getByText(t('inbox.addedForReview', { count: 1, rule: '服装退货政策' })),
      ).toBeVisible();
      await shoot(page, `review-inbox-added-${lang}`);
      // The phrasing waits in the draft: the rule is marked again.
      await editor.openRobot('Acme');
      await expect(rules.rowNamed('服装退货政策').getByTestId('unpublished-mark')).toBeVisible();
      await expect(editor.sidebar.getByTestId('unpublished-count')).toHaveText('1');
    });
  });
}
