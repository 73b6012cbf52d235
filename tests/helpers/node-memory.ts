/**
 * A service node's in-memory state over a given store, built as startService builds it, for tests
 * that play several nodes (or another node's writes) in one process; and a rule as a store takes
 * it.
 */
import { AnswerCache } from '../../electron/service/domain/answer-cache';
import type { DomainContext } from '../../electron/service/domain/context';
import { RobotDirectory } from '../../electron/service/domain/robot-directory';
import { RobotIndexes } from '../../electron/service/domain/robot-indexes';
import { RuleMenus } from '../../electron/service/domain/rule-menus';
import { RuleOrders } from '../../electron/service/domain/rule-order';
import { WriteQueue } from '../../electron/service/domain/write-queue';
import { silentLogger } from '../../electron/service/logger';
import { createRobotIndex } from '../../electron/service/matching/index';
import { PublishedEditions } from '../../electron/service/publishing/published-editions';
import { PublishingRoom } from '../../electron/service/publishing/publishing-room';
import type { NewRule } from '../../electron/service/store/contract/records';
import type { KbStore } from '../../electron/service/store/contract/store';

export function nodeMemory(store: KbStore): DomainContext {
  return {
    store,
    robots: new RobotDirectory(),
    indexes: new RobotIndexes(createRobotIndex),
    answers: new AnswerCache(),
    menus: new RuleMenus(),
    orders: new RuleOrders(),
    writes: new WriteQueue(),
    now: Date.now,
    logger: silentLogger,
  };
}

/** The same with the published editions as the context's publishing hooks, as a node has them. */
export function nodeMemoryWithPublishing(store: KbStore): PublishingRoom {
  const parts = nodeMemory(store);
  return new PublishingRoom({ ...parts, publishing: new PublishedEditions(parts) });
}

/** A rule named by its id, with one phrasing, answered `answer of <id>` unless told. */
export function storeRule(
  ruleId: string,
  question: string,
  answer = `answer of ${ruleId}`,
): NewRule {
  return {
    ruleId,
    ruleName: ruleId,
    nameKey: ruleId,
    categoryId: '',
    active: true,
    allowSimGen: null,
    effectBegin: null,
    effectEnd: null,
    questions: [question],
    answer,
    createdAt: Date.now(),
  };
}
