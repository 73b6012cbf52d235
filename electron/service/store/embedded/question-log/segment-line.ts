/**
 * An entry as a segment file's line (decision 123): the shared line of store/sql/question-log-line.ts
 * made shorter where the segment says it already: the time counted from the segment's UTC day
 * (8 digits, not 13), the usual channel as its index, and the values a usual entry leaves at
 * their default at the end of the line (no version, asked by the API, not chosen from a
 * RECOMMEND) left out. About 20 bytes an entry fewer (a tenth of the log).
 *
 * Lines of the shared form stay readable, in the same file even: their time is the epoch's
 * (never under a day's milliseconds but on 1970-01-01, whose day starts at 0: the same time).
 * @module
 */
import type { LoggedQuestion } from '../../../question-log-types';
import { DAY_MS, decodeRow, encode } from '../../sql/question-log-line';

/** Channels written as their index. */
const CHANNELS = ['API'];
/** Where the values a usual entry leaves at their default start (version, source, chosen from). */
const DEFAULTS_AT = 9;
const DEFAULTS: readonly unknown[] = [null, 0, null];

/**
 * The line of an entry in a segment of the day starting at `dayStart`: the shared line with its
 * first values and its last ones rewritten (no parse of it again: this runs for every ask).
 */
export function encodeLine(entry: LoggedQuestion, dayStart: number): string {
  const line = encode(entry);
  const at = entry.at - dayStart;
  const head = `[${JSON.stringify(entry.at)},${JSON.stringify(entry.userId)},${JSON.stringify(entry.channel)},`;
  // Out of its day (a clamped time), or not as expected: the shared form says it as it is.
  if (at < 0 || at >= DAY_MS || !line.startsWith(head)) return line;
  const channel = CHANNELS.indexOf(entry.channel);
  let body = line.slice(head.length - 1);
  // The defaults at the end of a line of 12 values, the last first.
  const plain = entry.menuEntry === null && entry.runnerUp === undefined;
  const tail = [
    `,${JSON.stringify(entry.version)}`,
    `,${entry.source === 'try' ? 1 : 0}`,
    `,${JSON.stringify(entry.chosenFrom)}`,
  ];
  const usual = [',null', ',0', ',null'];
  if (plain && body.endsWith(`${tail.join('')}]`)) {
    body = body.slice(0, -1);
    for (let i = tail.length - 1; i >= 0 && tail[i] === usual[i]; i--)
      body = body.slice(0, -(tail[i] as string).length);
    body += ']';
  }
  const channelValue = channel >= 0 ? String(channel) : JSON.stringify(entry.channel);
  return `[${at},${JSON.stringify(entry.userId)},${channelValue}${body}`;
}

/** The entry of a segment's line (either form), or null when the line is not one. */
export function decodeLine(line: string, dayStart: number): LoggedQuestion | null {
  let values: unknown;
  try {
    values = JSON.parse(line);
  } catch {
    return null;
  }
  if (!Array.isArray(values) || typeof values[0] !== 'number') return null;
  if (values[0] < DAY_MS) {
    values[0] += dayStart;
    if (typeof values[2] === 'number') values[2] = CHANNELS[values[2]] ?? String(values[2]);
    for (let i = values.length; i < DEFAULTS_AT + DEFAULTS.length; i++) {
      if (i >= DEFAULTS_AT) values.push(DEFAULTS[i - DEFAULTS_AT]);
    }
  }
  return decodeRow(values);
}
