/**
 * One client cannot starve the others of connections (docs/team-server.md, "Connection
 * limits"): beyond loopback each client address holds at most its share, and idle connections
 * are closed to make room before a real request is refused. Clients of several addresses are
 * played from this machine: Linux routes all of 127.0.0.0/8 to the loopback interface, so a
 * socket bound to 127.0.0.2 is a client of another address. The limits are small so that the
 * test opens tens of connections, not hundreds; nothing here is timed.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { RobotClient } from '../../electron/client/openapi-client';
import { registerTenantWithRobot, startTestService } from '../helpers/service';
import type { TestService } from '../helpers/service';

const IDLE_CLIENT = '127.0.0.2';
const REAL_CLIENT = '127.0.0.3';
const BALANCER = '127.0.0.4';

/** A connection from `from` that sends nothing; resolves once connected. */
function idleConnection(port: number, from: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from });
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** A signed ask on a new connection from `from`: its status, or the error that ended it. */
function askFrom(port: number, robot: RobotClient, from: string): Promise<number | string> {
  const path = `${robot.basePath}/robot/ask`;
  const url = new URL(
    robot.client.signedUrl(path, { signMethod: 2, robotSecret: robot.robotSecret }),
  );
  const body = JSON.stringify({
    userId: 'u1',
    question: 'hello',
    channel: 'API',
    questionType: 'TEXT',
  });
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        localAddress: from,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end(body);
  });
}

/** Lets the server see what the clients did (connections accepted, closed). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

const openOf = (sockets: Socket[]) => sockets.filter((s) => !s.destroyed && !s.closed).length;

describe('fair connections, listening beyond loopback', () => {
  let h: TestService;
  let robot: RobotClient;
  const sockets: Socket[] = [];
  before(async () => {
    h = await startTestService({
      host: '0.0.0.0',
      trustProxy: [BALANCER],
      connectionLimits: { maxConnections: 30, maxConnectionsPerAddress: 8 },
    });
    ({ robot } = await registerTenantWithRobot(h.client));
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await h.close();
  });

  test('an address holding idle connections keeps its share only, and the others are served', async () => {
    // 40 idle connections from one address: more than its share and than the whole cap.
    for (let i = 0; i < 40; i += 1) sockets.push(await idleConnection(h.service.port, IDLE_CLIENT));
    await settle();
    assert.ok(openOf(sockets) <= 8, `${openOf(sockets)} idle connections of one address open`);
    // Four at a time: within that address's own share however long an ask takes (the first one
    // may load the robot's index), so only the idle address's connections can be in the way.
    const answers: (number | string)[] = [];
    for (let i = 0; i < 5; i += 1) {
      const round = Array.from({ length: 4 }, () => askFrom(h.service.port, robot, REAL_CLIENT));
      answers.push(...(await Promise.all(round)));
    }
    assert.deepEqual(
      answers.filter((status) => status !== 200),
      [],
      'every ask of another address is answered',
    );
  });

  test('a trusted load balancer is not held to the share of one address', async () => {
    const fromBalancer: Socket[] = [];
    for (let i = 0; i < 20; i += 1) {
      fromBalancer.push(await idleConnection(h.service.port, BALANCER));
    }
    sockets.push(...fromBalancer);
    await settle();
    assert.equal(openOf(fromBalancer), 20);
  });
});

describe('fair connections, on loopback (no limit per address)', () => {
  let h: TestService;
  let robot: RobotClient;
  const sockets: Socket[] = [];
  before(async () => {
    h = await startTestService({ connectionLimits: { maxConnections: 20 } });
    ({ robot } = await registerTenantWithRobot(h.client));
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await h.close();
  });

  test('idle connections are closed to make room before a real request is refused', async () => {
    for (let i = 0; i < 20; i += 1) {
      sockets.push(await idleConnection(h.service.port, '127.0.0.1'));
    }
    await settle();
    assert.equal(openOf(sockets), 20, 'the cap is reached with idle connections');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => askFrom(h.service.port, robot, '127.0.0.1')),
    );
    assert.deepEqual(
      answers.filter((status) => status !== 200),
      [],
      'every ask is answered',
    );
    await settle();
    assert.ok(openOf(sockets) < 20, 'idle connections were closed to make room');
  });
});
