/**
 * The grid's column layout as the user left it: which columns are hidden, their order and their
 * widths. Kept in localStorage (one layout for every robot: it is the user's way of working),
 * read defensively (an old or hand-edited value falls back to the default). No DOM here: the
 * storage is useColumnLayout's.
 * @module
 */

/** What the layout needs of a grid column. */
export interface LayoutColumn {
  readonly key: string;
  readonly width?: number | string | null | undefined;
}

/** Columns the user may hide and move; the row selector, # and rule name stay first. */
export const MOVABLE_COLUMNS = [
  'questions',
  'answer',
  'ruleCategoryId',
  'active',
  'effectBeignDate',
  'effectEndDate',
  'matchPolicy',
  'hits',
  'updatedAt',
  'updatedBy',
  'lastHit',
] as const;
export type MovableColumn = (typeof MOVABLE_COLUMNS)[number];

/**
 * Shown from the Columns menu only, so that the default layout stays whole at 1280 pixels: the
 * hits are shown (the figure that says whether a rule is used), the last hit and the update
 * date and who changed the rule (the least looked at) are one click away.
 */
const HIDDEN_BY_DEFAULT: readonly MovableColumn[] = ['updatedAt', 'updatedBy', 'lastHit'];

export interface ColumnLayout {
  order: MovableColumn[];
  hidden: MovableColumn[];
  /** Widths set by resizing, in pixels. */
  widths: Record<string, number>;
}

export const DEFAULT_LAYOUT: ColumnLayout = {
  order: [...MOVABLE_COLUMNS],
  hidden: [...HIDDEN_BY_DEFAULT],
  widths: {},
};

const isMovable = (key: unknown): key is MovableColumn =>
  typeof key === 'string' && (MOVABLE_COLUMNS as readonly string[]).includes(key);

/** A stored layout made whole: unknown keys dropped, columns missing from the order appended. */
export function normalizeLayout(value: unknown): ColumnLayout {
  if (!value || typeof value !== 'object') return DEFAULT_LAYOUT;
  const raw = value as Record<string, unknown>;
  const order = Array.isArray(raw.order) ? [...new Set(raw.order.filter(isMovable))] : [];
  const hidden = Array.isArray(raw.hidden) ? [...new Set(raw.hidden.filter(isMovable))] : [];
  for (const key of MOVABLE_COLUMNS) {
    if (order.includes(key)) continue;
    // A column newer than the stored layout comes as the default layout has it.
    order.push(key);
    if (HIDDEN_BY_DEFAULT.includes(key) && !hidden.includes(key)) hidden.push(key);
  }
  const widths: Record<string, number> = {};
  if (raw.widths && typeof raw.widths === 'object') {
    for (const [key, width] of Object.entries(raw.widths as Record<string, unknown>)) {
      if (typeof width === 'number' && Number.isFinite(width) && width >= 40 && width <= 2000) {
        widths[key] = Math.round(width);
      }
    }
  }
  return { order, hidden, widths };
}

/** `source` moved to where `target` is (drag and drop of headers). */
export function moveColumn(layout: ColumnLayout, source: string, target: string): ColumnLayout {
  if (!isMovable(source) || !isMovable(target) || source === target) return layout;
  const order = layout.order.filter((key) => key !== source);
  const at = order.indexOf(target);
  const sourceIndex = layout.order.indexOf(source);
  const targetIndex = layout.order.indexOf(target);
  order.splice(sourceIndex < targetIndex ? at + 1 : at, 0, source);
  return { ...layout, order };
}

/** Columns that share the width the others leave, unless the user set their width. */
const FLEXIBLE = new Set<string>(['questions', 'answer']);
const FLEX_MIN = 124;

/**
 * The columns as the layout shows them: fixed ones first, then the others in its order, at the
 * widths the user set; questions and answers share what is left of `available` pixels.
 */
export function applyLayout<C extends LayoutColumn>(
  columns: readonly C[],
  layout: ColumnLayout,
  available: number,
): C[] {
  const byKey = new Map(columns.map((column) => [column.key, column]));
  const fixed = columns.filter((column) => !isMovable(column.key));
  const movable = layout.order.flatMap((key) => {
    const column = byKey.get(key);
    return column && !layout.hidden.includes(key) ? [column] : [];
  });
  const shown = [...fixed, ...movable].map((column) => {
    const width = layout.widths[column.key];
    return width === undefined ? column : { ...column, width };
  });
  const flexible = shown.filter((c) => FLEXIBLE.has(c.key) && layout.widths[c.key] === undefined);
  if (flexible.length === 0) return shown;
  const taken = shown
    .filter((column) => !flexible.includes(column))
    .reduce((sum, column) => sum + (typeof column.width === 'number' ? column.width : 0), 0);
  const share = Math.max(FLEX_MIN, Math.floor((available - taken) / flexible.length));
  return shown.map((column) => (flexible.includes(column) ? { ...column, width: share } : column));
}
