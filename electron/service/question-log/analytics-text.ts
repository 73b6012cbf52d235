/**
 * Whole rule analytics and rule hits as JSON text on the embedded store (decision 168): the same
 * bytes as `JSON.stringify(success(…))` of `ruleAnalytics` and of the rule rows, made from
 * pieces of text kept per rule. Reading 10k rules' facts from sql.js and serialising 10k objects
 * cost ~200 ms of CPU per read whatever the log's size, i.e. one to three seconds of wall time
 * on this machine under load: the facts' text is kept while the store has no new write (its
 * `position`), and a read only writes each rule's counts between its kept head and tail.
 * @module
 */
import type { RuleAnalytics } from '../question-log-types';
import type { LogFigures, LogKey, RuleRow } from '../store/contract/question-log';
import { DAY_MS } from '../store/contract/question-log';
import type { RuleFacts } from '../store/contract/records';
import { nextTurn } from '../time-slices';
import { HITS_BY_DAY_RULES, confusable, hitsByDay, keepBest } from './analytics';

/** Rules written per turn of the event loop (a few ms of work). */
const ROWS_SLICE = 2000;
/** Robots whose facts' text is kept (least recently read out first). */
const ROBOTS_KEPT = 8;

/** A robot's rules as pieces of JSON text, in creation order. */
export interface RuleFactsText {
  ids: string[];
  /** `{"ruleId":"…"`: an item's start. */
  heads: string[];
  /** `,"ruleName":"…","effectEnd":…}`: an analytics item's end. */
  tails: string[];
  /** Each rule's window end, when it has one. */
  ends: (string | null)[];
  known: Set<string>;
}

async function factsText(facts: readonly RuleFacts[]): Promise<RuleFactsText> {
  const text: RuleFactsText = { ids: [], heads: [], tails: [], ends: [], known: new Set() };
  for (let i = 0; i < facts.length; i++) {
    if (i > 0 && i % ROWS_SLICE === 0) await nextTurn();
    const rule = facts[i] as RuleFacts;
    text.ids.push(rule.ruleId);
    text.heads.push(`{"ruleId":${JSON.stringify(rule.ruleId)}`);
    text.tails.push(
      `,"ruleName":${JSON.stringify(rule.ruleName)},"effectEnd":${JSON.stringify(rule.effectEnd)}}`,
    );
    text.ends.push(rule.effectEnd);
    text.known.add(rule.ruleId);
  }
  return text;
}

/**
 * The facts' text of the robots last read, each valid at the store's position it was read at: a
 * committed write (any: a rule's name, its window, a rule added or deleted) moves the position,
 * and the next read reads the facts again. The position is taken before the read, so a write
 * committed while the facts are read makes the next read read them again too.
 */
export class RuleFactsCache {
  private readonly robots = new Map<string, { position: number; text: Promise<RuleFactsText> }>();

  of(
    robot: string,
    position: number,
    read: () => Promise<readonly RuleFacts[]>,
  ): Promise<RuleFactsText> {
    const kept = this.robots.get(robot);
    this.robots.delete(robot);
    if (kept && kept.position === position) {
      this.robots.set(robot, kept);
      return kept.text;
    }
    const text = read().then(factsText);
    // A failed read is not kept.
    text.catch(() => {
      if (this.robots.get(robot)?.text === text) this.robots.delete(robot);
    });
    this.robots.set(robot, { position, text });
    for (const key of this.robots.keys()) {
      if (this.robots.size <= ROBOTS_KEPT) break;
      this.robots.delete(key);
    }
    return text;
  }
}

/** An item's counts as `JSON.stringify` writes them (integers; lastHit a number or null). */
const countsText = (row: RuleRow | undefined): string =>
  row === undefined
    ? ',"hits":0,"chosen":0,"fromMenu":0,"recommended":0,"lastHit":null'
    : `,"hits":${row.hits},"chosen":${row.chosen},"fromMenu":${row.fromMenu},` +
      `"recommended":${row.recommended},"lastHit":${row.lastHit === null ? 'null' : row.lastHit}`;

/** `ruleAnalytics`' answer as JSON text (the same bytes), from the rules' facts as text. */
export async function ruleAnalyticsText(
  figures: LogFigures,
  log: LogKey,
  facts: RuleFactsText,
  now: number,
): Promise<string> {
  const hits = new Map((await figures.rules(log)).map((row) => [row.ruleId, row]));
  const soon = now + 30 * DAY_MS;
  const items: string[] = [];
  const neverHit: string[] = [];
  const expiring: RuleAnalytics['expiring'] = [];
  const top: RuleRow[] = [];
  for (let i = 0; i < facts.ids.length; i++) {
    if (i > 0 && i % ROWS_SLICE === 0) await nextTurn();
    const ruleId = facts.ids[i] as string;
    const hit = hits.get(ruleId);
    items.push(`${facts.heads[i]}${countsText(hit)}${facts.tails[i]}`);
    if (hit === undefined || hit.hits === 0) neverHit.push(JSON.stringify(ruleId));
    else keepBest(top, hit, HITS_BY_DAY_RULES);
    const effectEnd = facts.ends[i];
    if (effectEnd !== null && effectEnd !== undefined) {
      const end = Date.parse(effectEnd);
      if (end >= now && end <= soon) expiring.push({ ruleId, effectEnd });
    }
  }
  const pairs = await confusable(figures, log, (ruleId) => facts.known.has(ruleId));
  const days = await hitsByDay(
    figures,
    log,
    top.map((row) => row.ruleId),
  );
  return (
    `{"rules":[${items.join(',')}],"neverHit":[${neverHit.join(',')}],` +
    `"confusable":${JSON.stringify(pairs)},"expiring":${JSON.stringify(expiring)},` +
    `"hitsByDay":${JSON.stringify(days)}}`
  );
}

/** `{ rules }` of the rule hits as JSON text (the same bytes as `JSON.stringify`). */
export async function ruleHitsText(rows: readonly RuleRow[]): Promise<string> {
  const items: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    if (i > 0 && i % ROWS_SLICE === 0) await nextTurn();
    const row = rows[i] as RuleRow;
    items.push(`{"ruleId":${JSON.stringify(row.ruleId)}${countsText(row)}}`);
  }
  return `{"rules":[${items.join(',')}]}`;
}
