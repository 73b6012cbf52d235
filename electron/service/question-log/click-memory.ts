/**
 * Click feedback: the last RECOMMEND each user got, for a few minutes, so that the user's next
 * question, when it is one of the recommended ones, is known as a choice. Bounded: the users
 * least recently seen are forgotten first.
 * @module
 */
/** How long after a RECOMMEND the user's next question counts as a choice from it. */
export const CLICK_WINDOW_MS = 5 * 60 * 1000;
/** Users remembered at once (of every robot). */
export const CLICK_MEMORY_MAX = 10_000;

interface Offer {
  at: number;
  question: string;
  items: readonly { ruleId: string; question: string }[];
}

/**
 * How a choice is recognised: a widget sends the recommended question as it was shown, so case
 * and surrounding spaces are all that may differ. It runs on every ask that follows a RECOMMEND,
 * against each item: items of another length (spaces aside) are passed over without a copy.
 */
function sameQuestion(item: string, asked: string, askedTrimmed: string): boolean {
  if (item === asked) return true;
  const trimmed = item.length === askedTrimmed.length ? item : item.trim();
  return (
    trimmed.length === askedTrimmed.length && trimmed.toLowerCase() === askedTrimmed.toLowerCase()
  );
}

export class ClickMemory {
  private readonly offers = new Map<string, Offer>();

  constructor(private readonly max = CLICK_MEMORY_MAX) {}

  get size(): number {
    return this.offers.size;
  }

  /**
   * Takes a user's question: when it is an item of the RECOMMEND the user got within the window,
   * returns that RECOMMEND's question and the item's rule. The user's offer is forgotten either
   * way (a next question is a choice or a new start); a RECOMMEND answer is then remembered.
   */
  take(
    user: string,
    at: number,
    question: string,
    items: readonly { ruleId: string; question: string }[] | null,
  ): { question: string; ruleId: string } | null {
    const offer = this.offers.get(user);
    let choice: { question: string; ruleId: string } | null = null;
    if (offer) {
      this.offers.delete(user);
      if (at - offer.at <= CLICK_WINDOW_MS) {
        const trimmed = question.trim();
        const item = offer.items.find((candidate) =>
          sameQuestion(candidate.question, question, trimmed),
        );
        if (item) choice = { question: offer.question, ruleId: item.ruleId };
      }
    }
    if (items && items.length > 0) {
      this.offers.set(user, { at, question, items });
      if (this.offers.size > this.max) {
        const oldest = this.offers.keys().next();
        if (!oldest.done) this.offers.delete(oldest.value);
      }
    }
    return choice;
  }
}
