/**
 * A stop does not wait for connections that carry no request: a browser opens connections
 * ahead of need and sends nothing on them, and an editor keeps its used ones alive. A request
 * in flight when the stop begins is still answered. The idle timeout is made long here, so that
 * a stop that waited for it could not end within the bound.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { describe, test } from 'node:test';
import { STOP_DRAIN_MS } from '../../electron/service/http/connection-limits';
import { registerTenantWithRobot, startTestService } from '../helpers/service';

const LIMITS = {
  headersTimeoutMs: 60_000,
  requestTimeoutMs: 120_000,
  idleTimeoutMs: 300_000,
  maxConnections: 40,
};
/** Well under the drain deadline and the idle timeout: a stop that waited would not make it. */
const BOUND_MS = STOP_DRAIN_MS / 2;

interface Probe {
  socket: Socket;
  closed: Promise<void>;
  received: string;
}

function open(port: number): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const probe: Probe = {
      socket,
      closed: new Promise((done) => socket.once('close', () => done())),
      received: '',
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (probe.received += chunk));
    socket.on('error', () => {});
    socket.once('connect', () => resolve(probe));
    socket.once('error', reject);
  });
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + BOUND_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Resolves with the ms the stop took, or rejects once `BOUND_MS` passed. */
async function timedStop(stop: () => Promise<void>): Promise<number> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`stop took over ${BOUND_MS} ms`)), BOUND_MS);
  });
  try {
    await Promise.race([stop(), late]);
    return Date.now() - started;
  } finally {
    clearTimeout(timer);
  }
}

describe('stopping with connections open', () => {
  test('closes a connection that never sent a byte and an idle kept-alive one', async () => {
    const h = await startTestService({ connectionLimits: LIMITS });
    const port = h.service.port;
    const silent = await open(port);
    const used = await open(port);
    used.socket.write('GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await until(() => used.received.includes('\r\n\r\n'), 'the kept-alive answer');
    try {
      await timedStop(() => h.service.stop());
      await Promise.all([silent.closed, used.closed]);
    } finally {
      silent.socket.destroy();
      used.socket.destroy();
      await h.close();
    }
  });

  test('answers a request in flight when the stop begins, then closes its connection', async () => {
    const h = await startTestService({ connectionLimits: LIMITS });
    const { robot } = await registerTenantWithRobot(h.client);
    const port = h.service.port;
    const silent = await open(port);
    const busy = await open(port);
    const body = JSON.stringify({ question: 'hello', userId: 'u1' });
    busy.socket.write(
      `POST ${robot.basePath}/robot/ask?adminkey=a&customerId=c&nonce=n&timestamp=1&sign=s ` +
        `HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    // The request has begun (its headers are in); the stop starts before its body is whole.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopping = timedStop(() => h.service.stop());
    await silent.closed;
    busy.socket.write(body.slice(5));
    try {
      await stopping;
      await busy.closed;
      // Unsigned, so refused; what matters is that it was answered, in the envelope.
      assert.match(busy.received, /^HTTP\/1\.1 \d{3} /);
      assert.match(busy.received, /"code":/);
    } finally {
      silent.socket.destroy();
      busy.socket.destroy();
      await h.close();
    }
  });
});
