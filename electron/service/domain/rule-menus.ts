/**
 * The menus of every robot's rules, in memory (few and small): an answer is known to be a menu
 * without a store read. Loaded at start, then following every rule change (rule-changes.ts).
 * @module
 */
import type { MenuEntry, StoredRule } from '../store/contract/records';

export class RuleMenus {
  private readonly menus = new Map<string, readonly MenuEntry[]>();

  get(ruleId: string): readonly MenuEntry[] | undefined {
    return this.menus.get(ruleId);
  }

  set(ruleId: string, menu: readonly MenuEntry[] | null | undefined): void {
    if (menu && menu.length > 0) this.menus.set(ruleId, menu);
    else this.menus.delete(ruleId);
  }

  /** Follows rules as stored now (added or changed) and rules removed. */
  follow(stored: readonly StoredRule[], removed: readonly StoredRule[]): void {
    for (const rule of removed) this.menus.delete(rule.ruleId);
    for (const rule of stored) this.set(rule.ruleId, rule.menu);
  }

  clear(): void {
    this.menus.clear();
  }
}
