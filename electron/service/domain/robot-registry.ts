/**
 * The robots known to the service, in memory: every signed method-2 request needs its robot's
 * secret and every ask its settings and index, so they are not read from the database each time.
 * The registry follows every write made through the robots domain.
 * @module
 */
import type { Store } from '../storage/database';
import type { CreateRobotIndex, MatchableRule, RobotIndex } from '../matching/types';
import { parseRobotSettings } from './robot-settings';
import type { RobotSettings } from './robot-settings';
import { ruleRowToMatchable } from './rule-rows';
import type { RuleRow } from './rule-rows';

export interface RobotEntry {
  tenantId: number;
  robotId: string;
  name: string;
  secret: string;
  settings: RobotSettings;
  index: RobotIndex;
}

const key = (tenantId: number, robotId: string) => `${tenantId}/${robotId}`;

export class RobotRegistry {
  private readonly robots = new Map<string, RobotEntry>();

  constructor(private readonly createIndex: CreateRobotIndex) {}

  /** Loads every robot and builds every index from the database (at start). */
  load(store: Store): void {
    this.robots.clear();
    const rows = store.all<{
      tenant_id: number;
      robot_id: string;
      name: string;
      secret: string;
      settings: string;
    }>('SELECT tenant_id, robot_id, name, secret, settings FROM robots');
    for (const row of rows)
      this.put(row.tenant_id, row.robot_id, row.name, row.secret, row.settings);
    const rules = store.all<RuleRow>(
      'SELECT rule_id, tenant_id, robot_id, rule_name, questions, active, effect_begin, effect_end FROM rules ORDER BY rule_seq',
    );
    for (const rule of rules)
      this.get(rule.tenant_id, rule.robot_id)?.index.upsert(ruleRowToMatchable(rule));
  }

  get(tenantId: number, robotId: string): RobotEntry | undefined {
    return this.robots.get(key(tenantId, robotId));
  }

  listForTenant(tenantId: number): RobotEntry[] {
    return [...this.robots.values()].filter((robot) => robot.tenantId === tenantId);
  }

  put(
    tenantId: number,
    robotId: string,
    name: string,
    secret: string,
    settingsJson: string,
  ): RobotEntry {
    const existing = this.get(tenantId, robotId);
    const entry: RobotEntry = {
      tenantId,
      robotId,
      name,
      secret,
      settings: parseRobotSettings(settingsJson),
      index: existing?.index ?? this.createIndex(),
    };
    this.robots.set(key(tenantId, robotId), entry);
    return entry;
  }

  upsertRule(tenantId: number, robotId: string, rule: MatchableRule): void {
    this.get(tenantId, robotId)?.index.upsert(rule);
  }

  removeRule(tenantId: number, robotId: string, ruleId: string): void {
    this.get(tenantId, robotId)?.index.remove(ruleId);
  }
}
