/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS: loaded with `node -r` and by require('electron') */
// `node -r ./register-fake-electron.cjs dist/main.cjs`: `require('electron')` gets the fake.
const Module = require('node:module');
const { join } = require('node:path');

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === 'electron') return join(__dirname, 'fake-electron.cjs');
  return resolve.call(this, request, ...rest);
};
