import { randomBytes } from 'node:crypto';

/**
 * A UUID version 7: 48 bits of milliseconds, then random bits. Ids made one after another sort
 * after each other, so a batch of new rules is appended at the end of the id index instead of
 * being scattered through it (random UUIDs made imports several times slower).
 */
export function timeOrderedUuid(nowMs: number): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(Math.max(0, Math.floor(nowMs)) % 2 ** 48, 0, 6);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
