import { randomBytes } from 'node:crypto';

/** Random bytes drawn in blocks: one `randomBytes` call per 256 ids instead of one per id. */
let pool = Buffer.alloc(0);
let poolOffset = 0;

function randomBits(): [number, number, number] {
  if (poolOffset + 10 > pool.length) {
    pool = randomBytes(2560);
    poolOffset = 0;
  }
  const a = pool.readUInt16BE(poolOffset) & 0x0fff;
  const bHigh = pool.readUInt32BE(poolOffset + 2) & 0x3fffffff;
  const bLow = pool.readUInt32BE(poolOffset + 6);
  poolOffset += 10;
  return [a, bHigh, bLow];
}

/** The last id made: its millisecond and its 74 random bits (12 + 30 + 32). */
let lastMs = -1;
let randA = 0;
let randBHigh = 0;
let randBLow = 0;

const HEX2 = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
/** 8 hex digits of a 32-bit unsigned value. */
const hex8 = (v: number) =>
  (HEX2[v >>> 24] as string) +
  (HEX2[(v >>> 16) & 0xff] as string) +
  (HEX2[(v >>> 8) & 0xff] as string) +
  (HEX2[v & 0xff] as string);

/** `xxxxxxxx-xxxx-` for the last millisecond, made once per millisecond. */
let timePrefix = '';

/**
 * A UUID version 7 (RFC 9562): 48 bits of milliseconds, then 74 random bits. Ids made in the
 * same millisecond continue from the previous one (its random bits plus one, the RFC's
 * "monotonic random" method), so the ids of a process always sort in the order they were made:
 * a batch of new rules is appended at the end of the id index instead of being scattered
 * through it (random UUIDs made imports several times slower).
 */
export function timeOrderedUuid(nowMs: number): string {
  const ms = Math.max(0, Math.floor(nowMs)) % 2 ** 48;
  if (ms > lastMs) {
    [randA, randBHigh, randBLow] = randomBits();
    setTime(ms);
  } else {
    // Same millisecond, or the clock went back: count on from the last id.
    randBLow = (randBLow + 1) >>> 0;
    if (randBLow === 0) {
      randBHigh = (randBHigh + 1) & 0x3fffffff;
      if (randBHigh === 0) {
        randA = (randA + 1) & 0x0fff;
        if (randA === 0) setTime((lastMs + 1) % 2 ** 48);
      }
    }
  }
  const a = hex8(0x7000 | randA).slice(4);
  const high = hex8((0x80000000 | randBHigh) >>> 0); // 10…: the RFC 9562 variant
  return `${timePrefix}${a}-${high.slice(0, 4)}-${high.slice(4)}${hex8(randBLow)}`;
}

function setTime(ms: number): void {
  lastMs = ms;
  const time = hex8(Math.floor(ms / 2 ** 16)) + hex8(ms % 2 ** 16).slice(4);
  timePrefix = `${time.slice(0, 8)}-${time.slice(8)}-`;
}
