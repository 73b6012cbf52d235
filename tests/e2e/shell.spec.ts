import { expect, shoot, test } from './fixtures';
import { BROWSER_LOCALE, LANGUAGES, translator } from './support/i18n';

for (const lang of LANGUAGES) {
  test.describe(lang, () => {
    test.use({ locale: BROWSER_LOCALE[lang] });
    const t = translator(lang);

    test('without its token the editor says which address to open, with the real port', async ({
      page,
      service,
    }) => {
      await page.goto(`${service.baseUrl}/`);
      await expect(page.getByRole('heading', { name: t('token.title') })).toBeVisible();
      await expect(page.getByTestId('token-example')).toHaveText(
        `editor: ${service.baseUrl}/?token=…`,
      );
      expect(new URL(service.baseUrl).port).not.toBe('8787');
      await shoot(page, `no-token-${lang}`);
    });
  });
}

test('the editor has a favicon, served by the service', async ({ page, service }) => {
  await page.goto(service.editorUrl);
  const href = await page.locator('link[rel="icon"]').getAttribute('href');
  expect(href).toBeTruthy();
  const response = await page.request.get(new URL(href ?? '', `${service.baseUrl}/`).href);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('image/svg+xml');
  expect(await response.text()).toContain('<svg');
});

test('the editor starts under a CSP without eval (its field checks are compiled at build time)', async ({
  page,
  service,
}) => {
  const response = await page.goto(service.editorUrl);
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-eval');
  // The workspace renders, its forms' checks loaded (a CSP violation fails the test: fixtures.ts).
  await expect(page.getByRole('main')).toBeVisible();
});
