// usage: tsx filter-bench.ts ROOT RULES
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const [root, n] = process.argv.slice(2) as [string, string];
const { EmbeddedStore } = await import(join(root, 'electron/service/store/embedded/embedded-store.ts'));
const { normalizeText } = await import(join(root, 'electron/service/matching/normalize.ts'));
const { silentLogger } = await import(join(root, 'electron/service/logger.ts'));
const { generateRules } = await import(join(root, 'tests/bench/generate-rules.ts'));
const NOW = Date.UTC(2026, 10, 1);
const dir = mkdtempSync(join(tmpdir(), 'filter-bench-'));
const store = await EmbeddedStore.open({ dataDir: dir, logger: silentLogger, textKey: normalizeText });
const tenantId = await store.tenants.register({
  tenant: { phoneNumber: '13800138000', mail: 'a@example.com', company: 'x', createdAt: NOW },
  admin: { userId: 'user-1', username: 'Admin_01', usernameKey: 'admin_01', role: 'ADMIN', passwordHash: 'scrypt$x' },
  robot: { robotId: 'default', name: 'Default robot', secret: 's'.repeat(43), settingsJson: '{}', createdAt: NOW },
});
const robot = { tenantId, robotId: 'default' };
const count = Number(n);
const rules = generateRules(count, 7);
let answerBytes = 0;
for (let from = 0; from < count; from += 1000) {
  const batch = rules.slice(from, from + 1000).map((r: any, i: number) => {
    const answer = `${r.answer} ${'答'.repeat(300)}`;
    answerBytes += Buffer.byteLength(answer);
    return {
      ruleId: `bench-${from + i}`, ruleName: r.ruleName, nameKey: r.ruleName, categoryId: '', active: true,
      allowSimGen: null, effectBegin: null, effectEnd: null, questions: r.questions, answer,
      matchPolicy: 'similarity', negativeKeywords: [], menu: null, createdAt: NOW,
    };
  });
  await store.rules.insert(robot, batch, NOW, 'bench');
}
await store.close();
const dbBytes = statSync(join(dir, 'kb.sqlite')).size;
const again = await EmbeddedStore.open({ dataDir: dir, logger: silentLogger, textKey: normalizeText });
const query = (text: string) => again.rules.query(robot, { offset: 0, limit: 50, sort: (process.env.SORT ?? 'created') as any, descending: false, now: NOW, text });
const out: Record<string, number[]> = {};
const probes: Record<string, string> = { absent: 'zzzqqq', inName: rules[count - 1].ruleName, inAnswerOnly: 'Answer ' + (count - 1) + ':' };
for (let round = 0; round < 3; round++) {
  for (const [what, text] of Object.entries(probes)) {
    const t = performance.now();
    let last = t; let hold = 0;
    const tick = setInterval(() => { const now = performance.now(); hold = Math.max(hold, now - last); last = now; }, 1);
    const page = await query(text);
    clearInterval(tick); hold = Math.max(hold, performance.now() - last);
    (out[what] ??= []).push(Math.round(performance.now() - t)); (out[what + 'Hold'] ??= []).push(Math.round(hold));
    if (round === 0) console.log(what, JSON.stringify(text), 'total', page.total);
  }
}
console.log(JSON.stringify({ root, rules: count, dbMb: +(dbBytes / 1e6).toFixed(1), answerMb: +(answerBytes / 1e6).toFixed(1), ms: out }));
await again.close();
rmSync(dir, { recursive: true, force: true });
