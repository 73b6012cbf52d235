/**
 * The shell's small forms (a team server's address, a sign-in, a robot to copy): Electron has no
 * text-input dialog, so a form is a page of its own, shown in a modal window without preload,
 * script or network (prompt-window.ts). Submitting it navigates to
 * `https://kb-studio-prompt.invalid/answer?…`: the shell reads the answer off that URL and stops
 * the navigation. An https URL, because Electron does not report navigations to a custom scheme
 * (`will-navigate`, electron/electron#19603); on the reserved `.invalid` domain, which never
 * resolves, so nothing typed could leave the machine even if it went ahead; and refused as a
 * navigation everywhere else, never handed to the system browser (security.ts).
 * Pure functions: the page for a form, and the answer in a URL.
 * @module
 */

export const PROMPT_ORIGIN = 'https://kb-studio-prompt.invalid';
const ANSWER_PATH = '/answer';
const CANCEL_PATH = '/cancel';

export type PromptField =
  | { kind: 'text'; name: string; label: string; value?: string; placeholder?: string }
  | { kind: 'password'; name: string; label: string }
  | {
      kind: 'select';
      name: string;
      label: string;
      options: readonly { value: string; label: string }[];
      value?: string;
    };

export interface PromptSpec {
  title: string;
  /** A sentence above the fields. */
  intro?: string;
  /** A problem with the previous answer, shown in red above the fields. */
  error?: string;
  fields: readonly PromptField[];
  /** The label of the button that submits. */
  submit: string;
}

export type PromptOutcome = { kind: 'answer'; values: Record<string, string> } | { kind: 'cancel' };

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

function fieldHtml(field: PromptField, first: boolean): string {
  const name = escapeHtml(field.name);
  const focus = first ? ' autofocus' : '';
  const label = `<label for="${name}">${escapeHtml(field.label)}</label>`;
  if (field.kind === 'select') {
    const options = field.options
      .map(
        (option) =>
          `<option value="${escapeHtml(option.value)}"${option.value === field.value ? ' selected' : ''}>${escapeHtml(option.label)}</option>`,
      )
      .join('');
    return `${label}<select id="${name}" name="${name}"${focus} required>${options}</select>`;
  }
  const value = field.kind === 'text' && field.value ? ` value="${escapeHtml(field.value)}"` : '';
  const placeholder =
    field.kind === 'text' && field.placeholder
      ? ` placeholder="${escapeHtml(field.placeholder)}"`
      : '';
  const type = field.kind === 'password' ? 'password' : 'text';
  const extra =
    field.kind === 'password' ? ' autocomplete="current-password"' : ' spellcheck="false"';
  return `${label}<input id="${name}" name="${name}" type="${type}"${value}${placeholder}${extra}${focus} required>`;
}

/**
 * The form as a whole HTML page. Its CSP allows no script, no request, and form submission only
 * to the answer scheme.
 */
export function promptPage(spec: PromptSpec): string {
  const csp = `default-src 'none'; style-src 'unsafe-inline'; form-action ${PROMPT_ORIGIN}`;
  const fields = spec.fields.map((field, i) => fieldHtml(field, i === 0)).join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>${escapeHtml(spec.title)}</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 20px; color: #1f2328; background: #fff; }
h1 { font-size: 16px; margin: 0 0 12px; }
p { margin: 0 0 12px; }
.error { color: #b42318; }
label { display: block; margin: 10px 0 4px; font-weight: 600; }
input, select { width: 100%; box-sizing: border-box; padding: 6px 8px; font: inherit; }
.buttons { margin-top: 18px; display: flex; gap: 8px; justify-content: flex-end; }
.buttons a, .buttons button { padding: 6px 14px; font: inherit; }
</style></head>
<body><h1>${escapeHtml(spec.title)}</h1>
${spec.intro ? `<p>${escapeHtml(spec.intro)}</p>` : ''}
${spec.error ? `<p class="error" role="alert">${escapeHtml(spec.error)}</p>` : ''}
<form method="get" action="${PROMPT_ORIGIN}${ANSWER_PATH}">
${fields}
<div class="buttons"><a href="${PROMPT_ORIGIN}${CANCEL_PATH}" role="button">Cancel</a><button type="submit">${escapeHtml(spec.submit)}</button></div>
</form></body></html>`;
}

/** The page as a URL a window can load. */
export function promptDataUrl(spec: PromptSpec): string {
  return `data:text/html;charset=utf-8;base64,${Buffer.from(promptPage(spec)).toString('base64')}`;
}

/**
 * What a navigation of the form's window means: the answer (every field of the form, as typed),
 * a cancel, or null for any other URL (which the window refuses).
 */
export function parsePromptOutcome(url: string, spec: PromptSpec): PromptOutcome | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.origin !== PROMPT_ORIGIN) return null;
  if (parsed.pathname === CANCEL_PATH) return { kind: 'cancel' };
  if (parsed.pathname !== ANSWER_PATH) return null;
  const values: Record<string, string> = {};
  for (const field of spec.fields) {
    const value = parsed.searchParams.get(field.name);
    if (value === null) return null;
    if (field.kind === 'select' && !field.options.some((option) => option.value === value))
      return null;
    values[field.name] = value;
  }
  return { kind: 'answer', values };
}
