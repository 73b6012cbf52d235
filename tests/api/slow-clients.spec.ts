/**
 * Slow clients cannot hold the service: headers and whole requests have deadlines, idle
 * connections are closed, and the number of connections is capped. The limits are made small
 * here (ServiceOptions.connectionLimits) so that the test takes seconds; every loop is bounded.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_CONNECTION_LIMITS } from '../../electron/service/http/connection-limits';
import { registerTenantWithRobot, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

const LIMITS = {
  headersTimeoutMs: 400,
  requestTimeoutMs: 800,
  idleTimeoutMs: 1200,
  maxConnections: 40,
};
/** Longest a test waits for the server to act: the deadlines plus the checking interval. */
const BOUND_MS = 4000;

interface Probe {
  socket: Socket;
  /** ms from opening to the server's close, null while open. */
  closedAfter: number | null;
  received: string;
}

function open(port: number): Promise<Probe> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const probe: Probe = { socket, closedAfter: null, received: '' };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (probe.received += chunk));
    socket.on('error', () => {});
    socket.on('close', () => (probe.closedAfter = Date.now() - started));
    socket.once('connect', () => resolve(probe));
    socket.once('error', reject);
  });
}

/** Sends `text` one byte every `everyMs` until it is sent or the server closed the socket. */
async function trickle(probe: Probe, text: string, everyMs: number): Promise<void> {
  for (const byte of text) {
    if (probe.closedAfter !== null || probe.socket.destroyed) return;
    probe.socket.write(byte);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * Waits until the server closed every probe, or `bound` ms passed; then closes the rest itself.
 * Returns how many the server left open.
 */
async function closedWithin(probes: Probe[], bound: number): Promise<number> {
  const deadline = Date.now() + bound;
  while (Date.now() < deadline && probes.some((p) => p.closedAfter === null)) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const left = probes.filter((p) => p.closedAfter === null);
  for (const probe of left) probe.socket.destroy();
  return left.length;
}

describe('slow clients', () => {
  let h: TestService;
  let path: string;
  before(async () => {
    // The tenant is registered under the default limits: on a busy machine its password hash
    // can take longer than the small idle deadline below, which would close its connection.
    const setup = await startTestService();
    const { robot } = await registerTenantWithRobot(setup.client);
    path = robot.basePath;
    await setup.service.stop();
    h = await startTestService({ connectionLimits: LIMITS, dataDir: setup.dataDir });
  });
  after(async () => {
    await h.close();
  });

  const headOf = (route: string, length: number) =>
    `POST ${path}${route}?adminkey=a&customerId=c&nonce=n&timestamp=1&sign=s HTTP/1.1\r\n` +
    `Host: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  test('bodies trickled a byte at a time are cut at the request deadline (Fastify and the ask lane)', async () => {
    const probes = await Promise.all(Array.from({ length: 30 }, () => open(h.service.port)));
    const bodies = probes.map(async (probe, i) => {
      const route = i % 2 === 0 ? '/kb/rules/full/batch' : '/robot/ask';
      probe.socket.write(headOf(route, 500));
      await trickle(probe, '['.padEnd(500, ' '), 100);
    });
    const left = await closedWithin(probes, BOUND_MS);
    await Promise.all(bodies);
    assert.equal(left, 0, `${left} of 30 slow bodies still open after ${BOUND_MS} ms`);
    for (const probe of probes) {
      assert.ok((probe.closedAfter ?? 0) >= LIMITS.requestTimeoutMs - 50, `${probe.closedAfter}`);
      assert.match(probe.received, /^(HTTP\/1\.1 408|$)/);
    }
  });

  test('headers trickled a byte at a time are cut at the headers deadline', async () => {
    const probes = await Promise.all(Array.from({ length: 10 }, () => open(h.service.port)));
    const sending = probes.map((probe) => trickle(probe, headOf('/robot/ask', 10), 100));
    const left = await closedWithin(probes, BOUND_MS);
    await Promise.all(sending);
    assert.equal(left, 0, `${left} of 10 slow headers still open after ${BOUND_MS} ms`);
    for (const probe of probes) {
      assert.ok((probe.closedAfter ?? 0) >= LIMITS.headersTimeoutMs - 50, `${probe.closedAfter}`);
    }
  });

  test('a silent connection is closed at the headers deadline, a kept-alive one once idle', async () => {
    const silent = await Promise.all(Array.from({ length: 5 }, () => open(h.service.port)));
    const kept = await Promise.all(Array.from({ length: 5 }, () => open(h.service.port)));
    for (const probe of kept)
      probe.socket.write(`GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    const left = await closedWithin([...silent, ...kept], BOUND_MS);
    assert.equal(left, 0, `${left} of 10 quiet connections still open after ${BOUND_MS} ms`);
    for (const probe of silent) {
      assert.ok((probe.closedAfter ?? 0) >= LIMITS.headersTimeoutMs - 50, `${probe.closedAfter}`);
    }
    for (const probe of kept) {
      assert.match(probe.received, /^HTTP\/1\.1 404 /);
      assert.ok((probe.closedAfter ?? 0) >= LIMITS.idleTimeoutMs - 50, `${probe.closedAfter}`);
    }
  });

  test('beyond the cap, with every connection busy, a new one is refused; the service answers again after', async () => {
    // Each held connection has a request in flight (its body never comes): none is idle, so none
    // is closed to make room (fair-connections.spec.ts: idle ones are). Deadlines long enough
    // that no held request ends on its own meanwhile, however slow the machine.
    const patient = await startTestService({
      connectionLimits: { ...LIMITS, headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 },
    });
    try {
      const held = await Promise.all(
        Array.from({ length: LIMITS.maxConnections }, () => open(patient.service.port)),
      );
      for (const probe of held) {
        probe.socket.write(
          headOf('/kb/rules/full/batch', 500).replace(
            '\r\n\r\n',
            '\r\nExpect: 100-continue\r\n\r\n',
          ),
        );
      }
      // "100 Continue" comes once the server has read the request: every held one is busy then.
      const deadline = Date.now() + BOUND_MS;
      while (Date.now() < deadline && held.some((p) => !p.received.includes('100 Continue'))) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.equal(held.filter((p) => p.received.includes('100 Continue')).length, held.length);
      const extra = await open(patient.service.port);
      extra.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      assert.equal(await closedWithin([extra], 1000), 0, 'a connection over the cap was kept');
      assert.equal(extra.received, '', 'and answered nothing');
      assert.equal(
        held.filter((p) => p.closedAfter === null).length,
        held.length,
        'the busy ones were kept',
      );
      await closedWithin(held, 0);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const health = await fetch(`${patient.service.url}/healthz`);
      assert.equal(health.status, 200);
    } finally {
      await patient.close();
    }
  });

  test('the service keeps its defaults when none are given', async () => {
    const other = await startTestService();
    try {
      const server = other.service.connectionLimits;
      assert.equal(server.headersTimeoutMs, DEFAULT_CONNECTION_LIMITS.headersTimeoutMs);
      assert.equal(server.requestTimeoutMs, DEFAULT_CONNECTION_LIMITS.requestTimeoutMs);
      assert.equal(server.idleTimeoutMs, DEFAULT_CONNECTION_LIMITS.idleTimeoutMs);
      assert.equal(server.maxConnections, DEFAULT_CONNECTION_LIMITS.maxConnections);
      assert.equal(server.maxConnectionsPerAddress, 0, 'no limit per address on loopback');
      assert.ok(DEFAULT_CONNECTION_LIMITS.requestTimeoutMs <= 120_000);
    } finally {
      await other.close();
    }
  });
});
