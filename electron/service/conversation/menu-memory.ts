/**
 * Per-user conversation memory: the last menu each user of a robot was shown, for a while.
 * @module
 */
import type { MenuItem } from '../api-types';
import { normalizeText } from '../matching/normalize';

/** How long a menu stays open for its user's next question. */
export const MENU_WINDOW_MS = 10 * 60 * 1000;
/** Users remembered at most (the least recently seen are forgotten first). */
export const MENU_USERS_MAX = 10_000;

interface OpenMenu {
  items: readonly MenuItem[];
  /** Normalised entry texts, parallel to `items`. */
  keys: readonly string[];
  until: number;
}

const HAN_DIGITS: Record<string, number> = {
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
  十: 10,
};

/**
 * The entry number a reply names: `2`, `２`, `#2`, `no 2`, `option 2`, `第2个`, `第二项`, `二`,
 * `选2`; null when it names none. NFKC (in the normalisation) makes full-width digits ASCII.
 */
export function entryNumber(reply: string): number | null {
  const text = normalizeText(reply).replace(/\s+/g, '');
  const match =
    /^(?:no|number|option|选项?|第)?(\d{1,2}|[一二两三四五六七八九十]|十[一二三四五六七八九])(?:个|项|条|号)?$/.exec(
      text,
    );
  const digits = match?.[1];
  if (digits === undefined) return null;
  if (/^\d+$/.test(digits)) return Number(digits);
  if (digits.length === 2) return 10 + (HAN_DIGITS[digits[1] ?? ''] ?? 0);
  return HAN_DIGITS[digits] ?? null;
}

export class MenuMemory {
  /** `robot key \u0000 userId` → the menu open for that user; oldest seen first. */
  private readonly open = new Map<string, OpenMenu>();

  constructor(
    private readonly windowMs = MENU_WINDOW_MS,
    private readonly usersMax = MENU_USERS_MAX,
  ) {}

  get size(): number {
    return this.open.size;
  }

  /** Opens a menu for the user (replacing any other). */
  remember(robot: string, userId: string, items: readonly MenuItem[], now: number): void {
    const key = `${robot}\u0000${userId}`;
    this.open.delete(key);
    this.open.set(key, {
      items,
      keys: items.map((item) => normalizeText(item.question)),
      until: now + this.windowMs,
    });
    while (this.open.size > this.usersMax) {
      const oldest = this.open.keys().next().value as string;
      this.open.delete(oldest);
    }
  }

  forget(robot: string, userId: string): void {
    this.open.delete(`${robot}\u0000${userId}`);
  }

  /**
   * The entry of the user's open menu that `reply` chooses, by its number or its text (as the
   * matcher reads text: case, width and script do not matter); undefined when no menu is open
   * or the reply chooses none of its entries.
   */
  choice(robot: string, userId: string, reply: string, now: number): MenuItem | undefined {
    const key = `${robot}\u0000${userId}`;
    const menu = this.open.get(key);
    if (menu === undefined) return undefined;
    if (menu.until < now) {
      this.open.delete(key);
      return undefined;
    }
    const number = entryNumber(reply);
    if (number !== null) return menu.items.find((item) => item.number === number);
    const text = normalizeText(reply);
    const at = text === '' ? -1 : menu.keys.indexOf(text);
    return at < 0 ? undefined : menu.items[at];
  }
}
