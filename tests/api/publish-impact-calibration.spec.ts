/**
 * An impact preview compares the two sides as they will answer, calibrated (decision 206): an
 * old version's index is built for the preview, and until its self-test has run it answers with
 * offset 0 while the published index has its own. Previewed then, every answer the offset moves
 * was counted as changed by the draft. Over real HTTP on either store.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import type { ImpactReport } from '../../electron/service/publishing-types';
import { consoleClient } from '../helpers/console-client';
import { registerTenantWithRobot, ruleInput, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

const WORDS = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet'.split(' ');
const STORES = 'kilo lima mike november oscar papa quebec romeo sierra tango'.split(' ');
/**
 * Rules sharing a phrasing with the next (their self-test lowers every score: offset -4), and
 * one rule per store, whose near phrasings the offset decides.
 */
const rules = [
  ...WORDS.map((word, i) =>
    ruleInput(`Price ${i + 1}`, [
      `what is the price of ${word} today`,
      `what is the price of ${WORDS[(i + 1) % WORDS.length] as string} today`,
    ]),
  ),
  ...STORES.map((store) => ruleInput(`Store ${store}`, [`opening hours of the ${store} store`])),
];

describe('impact preview: both sides calibrated before they are compared', () => {
  let h: TestService;
  let api: ReturnType<typeof consoleClient>;
  let robot: RobotClient;
  let R: string;
  let edited: string;

  before(async () => {
    h = await startTestService({ impactWorkerMinQuestions: 0 });
    api = consoleClient(h.service.url, h.service.consoleToken);
    let tenantId: number;
    ({ tenantId, robot } = await registerTenantWithRobot(h.client));
    R = `/tenants/${tenantId}/robots/default`;
    const { succeed } = await robot.importRules(rules);
    edited = (succeed[WORDS.length] as { ruleId: string }).ruleId;
    // v1, then customers' questions: inexact ones, whose answers the offset decides.
    await api.ok('PATCH', R, { settings: { publishMode: 'review' } });
    for (const store of STORES) {
      await robot.ask(`opening hours of ${store} store`);
      await robot.ask(`the opening hours of the ${store} store please`);
    }
    await api.ok('PATCH', `${R}/rules/${edited}`, { answer: 'A new answer.' });
    const published = await api.call('POST', `${R}/versions`, { note: 'v2', author: 'admin' });
    assert.equal(published.status, 200);
    // The published index (v2) has run its self-test by now (a second after the last write).
    await new Promise((resolve) => setTimeout(resolve, 3000));
  });
  after(() => h.close());

  test('v1 against v2 counts only what the changed answer changes', async () => {
    const report = await api.ok<ImpactReport>('GET', `${R}/versions/impact?from=1&to=2`);
    assert.equal(report.replayed, 2 * STORES.length);
    // Only the questions the edited rule answers can change (its answer); none changes rule
    // or kind.
    const moved =
      report.kinds.newlyAnswered.questions +
      report.kinds.newlyUnanswered.questions +
      report.kinds.otherRule.questions;
    assert.equal(moved, 0, JSON.stringify(report.kinds));
    assert.ok(report.changed.questions <= 4, JSON.stringify(report.kinds));
  });
});
