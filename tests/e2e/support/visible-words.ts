/**
 * What a user of the Chinese editor reads, for the check that none of it is English or an
 * internal name: the visible text of the page and the accessible names it gives (aria-label,
 * title, placeholder, alt), with the Latin words each holds, less an allow-list.
 * @module
 */
import type { Page } from '@playwright/test';

/**
 * Latin words the Chinese editor may show: the product's name, technical names a Chinese user
 * reads as such, keys and units. Anything else in Latin letters is a leak, unless it is data.
 */
export const ALLOWED_WORDS: ReadonlySet<string> = new Set([
  'KB',
  'Studio',
  'API',
  'URL',
  'curl',
  'ID',
  'HTTP',
  'HTTPS',
  'JSON',
  'Excel',
  'xlsx',
  'CSV',
  'SQLite',
  'PostgreSQL',
  'Ollama',
  'OpenAI',
  'Ctrl',
  'Shift',
  'Alt',
  'Enter',
  'Esc',
  'Tab',
  'Delete',
  'Backspace',
  'Home',
  'End',
  'PgUp',
  'PgDn',
  'F1',
  'F2',
  'Insert',
  'Space',
  'macOS',
  // Names of things the user installs or calls, and the API's own parameter names.
  'MD5',
  'Xinference',
  'vLLM',
  'LocalAI',
  'TEI',
  'customerId',
  'adminkey',
  'adminsecret',
  'robotId',
  'robotsecret',
  // A language named in itself (the language pickers).
  'English',
  'ms',
  'MB',
  'GB',
  'px',
]);

// Page source text: the tests are type-checked for Node, without the DOM's globals.
const COLLECT = `(() => {
  const shown = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = (node.textContent || '').trim();
    const parent = node.parentElement;
    if (!text || !parent || parent.closest('script, style')) continue;
    const select = parent.closest('select');
    if (select ? shown(select) : shown(parent)) out.push(text);
  }
  for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
    if (!shown(el)) continue;
    for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
      const value = el.getAttribute(name);
      if (value) out.push(value);
    }
  }
  return out;
})()`;

/**
 * The texts of the page holding Latin words outside `ALLOWED_WORDS`, once `data` (what the
 * test seeded, ids) and addresses and curl lines are taken out.
 */
export async function latinLeaks(page: Page, data: readonly string[]): Promise<string[]> {
  const texts = await page.evaluate<string[]>(COLLECT);
  const leaks = new Set<string>();
  for (const text of texts) {
    let rest = text;
    if (/^curl\s/.test(rest)) continue;
    for (const item of data) rest = rest.split(item).join(' ');
    // Addresses and paths (…/embeddings), file types (.xlsx), an example model name.
    rest = rest.replace(/https?:\/\/\S+|\/[\w/]+|\.\w+\b|bge-m3/g, ' ');
    // Version numbers (v2, v1 → v2): the editor's notation in both languages, not a word.
    rest = rest.replace(/\bv\d+\b/g, ' ');
    // Single letters are keys (Ctrl+Z, Alt+I).
    const words = rest.match(/[A-Za-z][A-Za-z0-9_]*/g) ?? [];
    if (words.some((word) => word.length > 1 && !ALLOWED_WORDS.has(word))) leaks.add(text);
  }
  return [...leaks];
}
