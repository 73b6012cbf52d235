import assert from 'node:assert/strict';
import { hostname, networkInterfaces } from 'node:os';
import { test } from 'node:test';
import { allowedHostNames, hostNameOf } from '../../../electron/service/http/host-allow-list';

test('Host headers are read without port, brackets, case or final dot', () => {
  assert.equal(hostNameOf('127.0.0.1:8787'), '127.0.0.1');
  assert.equal(hostNameOf('[::1]:8787'), '::1');
  assert.equal(hostNameOf('[::1]'), '::1');
  assert.equal(hostNameOf('::1'), '::1');
  assert.equal(hostNameOf('LocalHost.:80'), 'localhost');
  assert.equal(hostNameOf('evil.example:8787'), 'evil.example');
  assert.equal(hostNameOf(''), '');
});

test('the allowed names: loopback, the listening address, and every own address on 0.0.0.0', () => {
  assert.deepEqual([...allowedHostNames('127.0.0.1')].sort(), ['127.0.0.1', '::1', 'localhost']);
  assert.ok(allowedHostNames('192.168.1.5').has('192.168.1.5'));
  assert.ok(allowedHostNames('KB-Host.lan').has('kb-host.lan'));
  const every = allowedHostNames('0.0.0.0');
  assert.ok(every.has(hostname().toLowerCase()));
  for (const addresses of Object.values(networkInterfaces())) {
    for (const { address } of addresses ?? []) assert.ok(every.has(address.toLowerCase()), address);
  }
  assert.ok(!every.has('evil.example'));
  assert.ok(!allowedHostNames('127.0.0.1').has(''), 'no Host header is no allowed name');
});
