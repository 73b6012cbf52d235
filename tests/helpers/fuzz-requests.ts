/**
 * Requests for the fuzz test (tests/api/fuzz.spec.ts): every route of the service, with bodies,
 * paths, queries and credentials drawn from a seeded generator. Each request starts from a
 * valid one and is then bent (fields changed, dropped or added, bodies replaced, signatures and
 * tokens spoiled), so that both sides of every check are reached. Content-Type is always
 * application/json, and paths are always well-formed URLs: framework errors for those have a
 * test of their own.
 */
import { md5 } from 'js-md5';
import { canonicalString } from '../../electron/service/auth/canonical';
import type { SignMethod } from '../../electron/service/auth/canonical';
import { ruleInput, tenantRequest, TEST_CREDENTIALS } from './service';

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FuzzRobot {
  tenantId: number;
  robotId: string;
  secret: string;
}

/** What the generator knows of the service's data: ids to aim at, secrets to sign with. */
export interface FuzzState {
  robots: FuzzRobot[];
  /** Robots and tenants that may be deleted (the others stay, so the fuzz keeps reaching data). */
  sacrificial: FuzzRobot;
  ruleIds: string[];
  categoryIds: string[];
  userIds: string[];
  consoleToken: string;
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Raw body text, or undefined for none. */
  body?: string;
  /** True when the request may change stored data if it is accepted. */
  writes: boolean;
  /** The robot whose data the request aims at, if any. */
  robot?: FuzzRobot;
  /** An editor page: answers HTML, not the envelope, when it succeeds. */
  page?: boolean;
}

const STRINGS = [
  '',
  ' ',
  'a',
  '退货',
  '怎么退货？',
  '😀',
  '\ud800',
  'x\udc00y',
  'x\u0000y',
  '__proto__',
  'constructor',
  'a'.repeat(201),
  '汉'.repeat(2001),
  '  padded  ',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '%',
  '_',
  '\\',
  '\n\t',
  'TEXT',
  'API',
  'ADMIN',
  '13800138000',
  'a@b.cn',
  '2024-02-30T00:00:00Z',
  '2024-01-01T00:00:00+08:00',
  '9999-12-31T23:59:59Z',
  'default',
  '1',
  '0',
  '-1',
  '1e3',
  '9007199254740993',
  'true',
  'null',
];

const NUMBERS = [0, -1, 1, 0.5, 2, 10, 11, 1000, 1001, 2 ** 53, 2 ** 53 + 2, 1e308, -1e308, 5e-324];

const RAW_BODIES = [
  '{',
  '[',
  '"',
  'nul',
  '{"a":1,}',
  '[1,2',
  '\u0000',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  `${'['.repeat(3000)}${']'.repeat(3000)}`,
  '1e999999',
  '"\\ud800"',
  ' ',
];

export class FuzzGenerator {
  private readonly random: () => number;
  private readonly usedUrls: string[] = [];

  constructor(
    seed: number,
    private readonly state: FuzzState,
  ) {
    this.random = seededRandom(seed);
  }

  private chance(p: number): boolean {
    return this.random() < p;
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  private int(max: number): number {
    return Math.floor(this.random() * max);
  }

  /** Any JSON value, shallow. */
  private value(depth = 0): unknown {
    switch (this.int(depth > 1 ? 4 : 6)) {
      case 0:
        return this.pick(STRINGS);
      case 1:
        return this.pick(NUMBERS);
      case 2:
        return this.chance(0.5);
      case 3:
        return null;
      case 4:
        return Array.from({ length: this.int(4) }, () => this.value(depth + 1));
      default:
        return { [this.pick(['a', 'name', 'ruleIds', '__proto__'])]: this.value(depth + 1) };
    }
  }

  /** Bends a valid body: a field changed, dropped or added, or the whole body replaced. */
  private bend(body: unknown): unknown {
    if (this.chance(0.25)) return body;
    if (this.chance(0.1)) return this.value();
    const mutations = 1 + this.int(3);
    let bent = structuredClone(body);
    for (let i = 0; i < mutations; i++) bent = this.bendOnce(bent);
    return bent;
  }

  private bendOnce(body: unknown): unknown {
    if (Array.isArray(body)) {
      if (body.length === 0 || this.chance(0.3)) return [...body, this.value()];
      const i = this.int(body.length);
      const copy = [...body];
      copy[i] = this.chance(0.5) ? this.bendOnce(copy[i]) : this.value();
      return copy;
    }
    if (typeof body !== 'object' || body === null) return this.value();
    const record = { ...(body as Record<string, unknown>) };
    const keys = Object.keys(record);
    const key = keys.length > 0 ? this.pick(keys) : 'field';
    switch (this.int(4)) {
      case 0:
        delete record[key];
        break;
      case 1:
        record[this.pick(['extra', 'seq', 'position', 'ruleId', 'tenantId', '__proto__'])] =
          this.value();
        break;
      case 2:
        record[key] = this.bendOnce(record[key]);
        break;
      default:
        record[key] = this.value();
    }
    return record;
  }

  private text(body: unknown): string | undefined {
    if (this.chance(0.04)) return this.pick(RAW_BODIES);
    if (body === undefined) return this.chance(0.1) ? JSON.stringify(this.value()) : undefined;
    return JSON.stringify(this.bend(body));
  }

  private robot(): FuzzRobot {
    return this.pick(this.state.robots);
  }

  private id(known: readonly string[], bogus: readonly string[]): string {
    return known.length > 0 && this.chance(0.75) ? this.pick(known) : this.pick(bogus);
  }

  private segment(value: string): string {
    return encodeURIComponent(value);
  }

  /** Query parameters of a list route, valid or not. */
  private query(names: readonly string[]): Record<string, string> {
    const query: Record<string, string> = {};
    for (const name of names) {
      // Short values only: a URL over Fastify's limits is a framework error, tested elsewhere.
      const value = String(this.chance(0.5) ? this.pick(NUMBERS) : this.pick(STRINGS));
      if (this.chance(0.4)) query[name] = value.slice(0, 250);
    }
    return query;
  }

  private withQuery(path: string, query: Record<string, string>): string {
    // A lone surrogate has no UTF-8 form: URLSearchParams would send U+FFFD, which is fine text.
    const entries = Object.entries(query);
    if (entries.length === 0) return path;
    return `${path}${path.includes('?') ? '&' : '?'}${new URLSearchParams(entries).toString()}`;
  }

  /** A signed openapi path: signed correctly, or spoiled in one of the ways a client can. */
  private signed(method: SignMethod, path: string, robot?: FuzzRobot, query = {}): string {
    if (this.usedUrls.length > 0 && this.chance(0.03)) return this.pick(this.usedUrls);
    const stale = this.chance(0.03);
    const base = {
      adminkey: TEST_CREDENTIALS.adminKey,
      customerId: TEST_CREDENTIALS.customerId,
      nonce: `n${this.int(1e9)}${this.int(1e9)}`,
      timestamp: String(Date.now() - (stale ? 3_600_000 : 0)),
    };
    const secret = robot && this.chance(0.97) ? robot.secret : 'not-the-secret';
    const sign = md5(
      canonicalString(method, {
        ...base,
        adminsecret: TEST_CREDENTIALS.adminSecret,
        uri: path,
        ...(method === 2 ? { robotsecret: secret } : {}),
      }),
    );
    const params: Record<string, string> = { ...base, sign };
    if (this.chance(0.05)) params.sign = 'f'.repeat(32);
    if (this.chance(0.03)) delete params[this.pick(Object.keys(params))];
    if (this.chance(0.02)) params.adminkey = 'someone-else';
    if (this.chance(0.02)) params.nonce = 'bad nonce!';
    const url = this.withQuery(`${path}?${new URLSearchParams(params).toString()}`, query);
    this.usedUrls.push(url);
    if (this.usedUrls.length > 50) this.usedUrls.shift();
    return url;
  }

  private consoleHeaders(): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.chance(0.94)) headers.authorization = `Bearer ${this.state.consoleToken}`;
    else if (this.chance(0.5)) headers.authorization = 'Bearer wrong';
    if (this.chance(0.03)) headers.host = 'rebound.example';
    return headers;
  }

  /** The next request. */
  next(): FuzzRequest {
    return this.chance(0.45) ? this.openapi() : this.console();
  }

  private openapi(): FuzzRequest {
    const headers = { 'content-type': 'application/json' };
    const robot = this.robot();
    const tenant = this.chance(0.9)
      ? String(robot.tenantId)
      : this.pick(['999', '0', 'x', '9007199254740993']);
    const robotId = this.chance(0.9) ? robot.robotId : this.pick(['nope', 'a b', '😀']);
    const base = `/v1/openapi/tenants/${this.segment(tenant)}`;
    const rules = `${base}/robots/${this.segment(robotId)}`;
    const target = { ...robot, robotId };
    switch (this.int(9)) {
      case 0:
        return {
          method: 'POST',
          path: this.signed(1, '/v1/openapi/register/init'),
          headers,
          body: this.text(tenantRequest()),
          writes: true,
        };
      case 1:
        return {
          method: 'POST',
          path: this.signed(1, `${base}/users`),
          headers,
          body: this.text({ username: `u_${this.int(1e6)}`, password: 'secret123', role: 'ADMIN' }),
          writes: true,
        };
      case 2: {
        const userId = this.segment(this.id(this.state.userIds, ['nobody', '1']));
        return {
          method: 'PUT',
          path: this.signed(1, `${base}/users/${userId}`),
          headers,
          body: this.text({ password: 'secret456' }),
          writes: true,
        };
      }
      case 3:
        return { method: 'GET', path: this.signed(1, `${base}/robots`), headers, writes: false };
      case 4:
        return {
          method: 'POST',
          path: this.signed(1, `${base}/robots`),
          headers,
          body: this.text({ name: `robot ${this.int(1e6)}` }),
          writes: true,
        };
      case 5: {
        const batch = Array.from({ length: 1 + this.int(3) }, () =>
          ruleInput(`rule ${this.int(1e9)}`, ['怎么退货', `question ${this.int(100)}`]),
        );
        return {
          method: 'POST',
          path: this.signed(2, `${rules}/kb/rules/full/batch`, target),
          headers,
          body: this.text(batch),
          writes: true,
          robot,
        };
      }
      case 6: {
        const ruleId = this.segment(this.id(this.state.ruleIds, ['nope', '1']));
        return {
          method: 'GET',
          path: this.signed(2, `${rules}/kb/rules/${ruleId}`, target),
          headers,
          writes: false,
        };
      }
      case 7:
        return {
          method: 'GET',
          path: this.signed(2, `${rules}/kb/rules`, target, this.query(['page', 'pageSize'])),
          headers,
          writes: false,
        };
      default:
        return {
          method: 'POST',
          path: this.signed(2, `${rules}/robot/ask`, target),
          headers,
          body: this.text({
            userId: 'u1',
            question: this.pick(['怎么退货', 'question 3', '退货']),
            channel: 'API',
            questionType: 'TEXT',
          }),
          // Ask reads only.
          writes: false,
        };
    }
  }

  private console(): FuzzRequest {
    const headers = this.consoleHeaders();
    const destroy = this.chance(0.05);
    const robot = destroy ? this.state.sacrificial : this.robot();
    const tenantId = this.chance(0.93) ? String(robot.tenantId) : this.pick(['999', '0', 'x']);
    const robotId = this.chance(0.93) ? robot.robotId : this.pick(['nope', 'a b']);
    const T = `/console/api/tenants/${this.segment(tenantId)}`;
    const R = `${T}/robots/${this.segment(robotId)}`;
    const ruleIds = () =>
      Array.from({ length: 1 + this.int(3) }, () => this.id(this.state.ruleIds, ['nope']));
    const ruleId = () => this.segment(this.id(this.state.ruleIds, ['nope', '1']));
    const categoryId = () => this.id(this.state.categoryIds, ['999', '0', 'x', '9007199254740993']);
    const write = (method: string, path: string, body?: unknown): FuzzRequest => ({
      method,
      path,
      headers,
      body: this.text(body),
      writes: true,
      robot,
    });
    const read = (path: string): FuzzRequest => ({ method: 'GET', path, headers, writes: false });
    if (destroy) {
      const userId = this.segment(this.id(this.state.userIds, ['nobody']));
      return this.pick([
        () => write('DELETE', T),
        () => write('POST', `${T}/restore`),
        () => write('DELETE', R),
        () => write('POST', `${R}/restore`),
        () => write('DELETE', `${T}/users/${userId}`),
        () => write('POST', `${T}/users/${userId}/restore`),
      ])();
    }
    switch (this.int(24)) {
      case 0:
        return read('/console/api/workspace');
      case 1:
        return read('/console/api/trash');
      case 2:
        return write('POST', '/console/api/tenants', { ...tenantRequest(), language: 'zh' });
      case 3:
        return write('POST', `${T}/users`, {
          username: `c_${this.int(1e6)}`,
          password: 'secret123',
          role: 'ADMIN',
        });
      case 4:
        return write('PUT', `${T}/users/${this.segment(this.id(this.state.userIds, ['x']))}`, {
          username: `n_${this.int(1e6)}`,
        });
      case 5:
        return write('POST', `${T}/robots`, {
          name: `console robot ${this.int(1e6)}`,
          language: 'en',
        });
      case 6:
        return write('PATCH', R, {
          name: `renamed ${this.int(100)}`,
          settings: { maxRecommend: 1 + this.int(10), synonyms: [['退货', '退款']] },
        });
      case 7:
        return write('POST', `${R}/rotate-secret`);
      case 8:
        return read(
          this.withQuery(
            `${R}/rules`,
            this.query(['offset', 'limit', 'q', 'active', 'state', 'category', 'sort', 'dir']),
          ),
        );
      case 9:
        return read(`${R}/rules/duplicates`);
      case 10:
        return read(this.withQuery(`${R}/rules/trash`, this.query(['limit'])));
      case 11:
        return write('POST', `${R}/rules/delete`, { ruleIds: ruleIds() });
      case 12:
        return write('POST', `${R}/rules/restore`, { ruleIds: ruleIds() });
      case 13:
        return write('POST', `${R}/rules/set-active`, {
          ruleIds: ruleIds(),
          active: this.chance(0.5),
        });
      case 14:
        return write(
          'POST',
          `${R}/rules/set-category`,
          this.chance(0.5)
            ? { ruleIds: ruleIds(), category: `cat ${this.int(5)}` }
            : { ruleIds: ruleIds(), categoryId: categoryId() },
        );
      case 15:
        return read(`${R}/rules/${ruleId()}`);
      case 16:
        return write('POST', `${R}/rules`, {
          ruleName: `console rule ${this.int(1e9)}`,
          questions: ['怎么退货', 'q'],
          answer: 'a',
          categoryName: `cat ${this.int(5)}`,
          active: this.chance(0.5),
          effectBeignDate: this.chance(0.5) ? '2024-01-01T00:00:00+08:00' : null,
        });
      case 17:
        return write('PATCH', `${R}/rules/${ruleId()}`, {
          answer: `answer ${this.int(100)}`,
          effectEndDate: this.pick([null, '2030-01-01T00:00:00Z', '2024-02-30T00:00:00Z']),
        });
      case 18:
        return read(`${R}/categories`);
      case 19:
        return write('POST', `${R}/categories`, { name: `category ${this.int(20)}` });
      case 20:
        return write('POST', `${R}/categories/merge`, { from: [categoryId()], into: categoryId() });
      case 21:
        return write('PATCH', `${R}/categories/${this.segment(categoryId())}`, {
          name: `category ${this.int(20)}`,
        });
      case 22:
        return write('DELETE', `${R}/categories/${this.segment(categoryId())}`);
      default:
        if (this.chance(0.3)) {
          return { method: 'GET', path: '/', headers, writes: false, page: true };
        }
        return {
          method: 'POST',
          path: `${R}/try`,
          headers,
          body: this.text({
            question: '怎么退货',
            asOf: this.pick(['2025-06-01T00:00:00Z', '2024-02-30T00:00:00Z']),
          }),
          // The try pane reads only.
          writes: false,
        };
    }
  }
}
