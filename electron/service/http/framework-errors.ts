/**
 * What the HTTP framework and Node's HTTP parser refuse before a route runs (an invalid
 * Content-Type, a path that is not valid percent-encoding, an over-long path parameter, headers
 * too large, a request that is not HTTP), answered in the contract's envelope with their own
 * status, and logged as one line without a stack: they are the client's mistakes, not faults.
 * @module
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FailureEnvelope } from '../api-types';
import type { ErrorCode } from '../errors';
import { ERROR_CODES } from '../errors';
import { LIMITS } from '../limits';
import type { Logger } from '../logger';
import { failure } from './envelope';

const mib = (bytes: number) => bytes / (1024 * 1024);

export interface FrameworkFailure {
  status: number;
  body: FailureEnvelope;
}

function refusal(code: ErrorCode, msg: string): FrameworkFailure {
  return { status: ERROR_CODES[code], body: failure(code, msg) };
}

/** Fastify's error codes for a client's mistake, and what the client is told. */
const BY_FASTIFY_CODE: Record<string, () => FrameworkFailure> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    refusal(
      'bad-content-type',
      'The Content-Type header is not a valid media type: send Content-Type: application/json.',
    ),
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    refusal(
      'body-too-large',
      `The request body is larger than ${mib(LIMITS.bodyBytesMax)} MiB (a robot bundle: ${mib(LIMITS.bundleBytesMax)} MiB).`,
    ),
  FST_ERR_BAD_URL: () =>
    refusal(
      'malformed-url',
      'The request path is not valid: a % must be followed by two hexadecimal digits, and the bytes they encode must be UTF-8.',
    ),
  FST_ERR_MAX_PARAM_LENGTH: () =>
    refusal(
      'path-param-too-long',
      'A part of the request path is longer than 100 characters: no tenant, robot, rule or user id is that long.',
    ),
};

interface RaisedError extends Error {
  code?: string;
  statusCode?: number;
}

/**
 * The envelope of an error the framework raised for a client's mistake (a 4xx), or null when
 * the error is not one (then it is a fault, answered 500).
 */
export function frameworkFailure(error: RaisedError): FrameworkFailure | null {
  const known = error.code !== undefined ? BY_FASTIFY_CODE[error.code] : undefined;
  if (known) return known();
  if (error.statusCode === 413) return BY_FASTIFY_CODE.FST_ERR_CTP_BODY_TOO_LARGE?.() ?? null;
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    // A body that could not be read (its length differs from Content-Length, the client
    // stopped sending it): the request is not what it says.
    return refusal('malformed-request', `The request could not be read: ${error.message}`);
  }
  return null;
}

/** At most this much of a refused body is read (and thrown away) so that its sender reads the 413. */
export const DISCARD_BYTES_MAX = 64 * 1024 * 1024;

/**
 * A body refused unread or half-read (413 `body-too-large`): Fastify answers it with
 * `Connection: close`, and Node then closes the socket as soon as the answer is written, while
 * the client is still sending; the client gets EPIPE or a reset, often before it has read the
 * answer (2 of 3 Node clients sending 12 MiB did). Instead, as nginx's lingering close, the
 * connection is kept and the rest of the body read and thrown away (Node's own handling of an
 * unread body), up to `DISCARD_BYTES_MAX`: a larger announced body is closed on as before, and a
 * chunked one that goes on past the bound has its connection closed then.
 */
export function drainRefusedBody(request: FastifyRequest, reply: FastifyReply): void {
  const raw = request.raw;
  if (raw.complete) return;
  if (Number(raw.headers['content-length']) > DISCARD_BYTES_MAX) return;
  reply.removeHeader('connection');
  const socket = raw.socket;
  const start = socket.bytesRead;
  const watch = setInterval(() => {
    if (raw.complete || socket.destroyed) clearInterval(watch);
    else if (socket.bytesRead - start > DISCARD_BYTES_MAX) {
      clearInterval(watch);
      socket.destroy();
    }
  }, 100).unref();
}

/** One log line for a refused request, without a stack. */
export function logRefusal(
  logger: Logger,
  method: string,
  url: string,
  answer: { status: number; body: unknown },
): void {
  const { code } = answer.body as FailureEnvelope;
  logger.warn(`refused ${method} ${url.slice(0, 200)}: ${answer.status} ${code}`);
}

/** Fastify's `frameworkErrors`: errors met while routing (bad URL, over-long parameter). */
export function frameworkErrorHandler(
  logger: Logger,
  cors: (request: FastifyRequest, reply: FastifyReply) => void,
) {
  return (error: RaisedError, request: FastifyRequest, reply: FastifyReply): void => {
    const answer = frameworkFailure(error) ?? refusal('malformed-request', error.message);
    logRefusal(logger, request.method, request.raw.url ?? '', answer);
    cors(request, reply);
    void reply.status(answer.status).send(answer.body);
  };
}

/** The answer to a request Node's HTTP parser refused, before any request object exists. */
function clientErrorAnswer(error: RaisedError): FrameworkFailure {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return refusal(
      'headers-too-large',
      'The request headers are too large (16 KiB at most, the request line included).',
    );
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return refusal('request-timeout', 'The request took too long to arrive.');
  }
  return refusal(
    'malformed-request',
    `The request is not valid HTTP/1.1 (${error.code ?? 'unreadable'}).`,
  );
}

/** Fastify's `clientErrorHandler`: writes the envelope on the socket, then closes it. */
export function clientErrorHandler(logger: Logger) {
  return (error: RaisedError, socket: Socket): void => {
    // A connection reset has nothing left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const answer = clientErrorAnswer(error);
    logger.warn(
      `refused a request from ${socket.remoteAddress ?? 'a client'}: ${answer.status} ${answer.body.code} (${error.code ?? error.message})`,
    );
    if (socket.writable) {
      const payload = JSON.stringify(answer.body);
      socket.write(
        `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n` +
          'Content-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(payload)}\r\n` +
          'Connection: close\r\n\r\n' +
          payload,
      );
    }
    socket.destroy();
  };
}
