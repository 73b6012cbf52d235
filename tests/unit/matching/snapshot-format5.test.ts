/**
 * An index saved by an engine of format 5 (postings with a key each, `fixtures/index-format5.kbix`
 * written by fdf6316's engine) or of format 6 (a Float32 weight a posting, `index-format6.kbix`
 * written by 0b11a67's) still opens: it answers as the same rules indexed today do, with its
 * tombstones still skipped, takes writes, and saves again as format 7, without keys and with
 * two-byte weight codes. (Should tokenisation change, a file is refused by its fingerprint and
 * this test says so.)
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { SnapshotReader } from '../../../electron/service/matching/binary-snapshot';
import {
  DEFAULT_MATCH_SETTINGS,
  createRobotIndex,
  loadRobotIndex,
  saveRobotIndex,
} from '../../../electron/service/matching/index';
import type { RobotIndex } from '../../../electron/service/matching/types';
import { matchableRule } from '../../helpers/matchable-rule';
import { FORMAT5_NOW, fillFormat5Sample } from './fixtures/index-format5-rules';

function fileBytes(name: string): Uint8Array<ArrayBuffer> {
  const file = readFileSync(resolve(import.meta.dirname, 'fixtures', name));
  const bytes = new Uint8Array(file.length);
  bytes.set(file);
  return bytes;
}

const QUESTIONS = [
  '怎么办理退款 8',
  'how do i fix my refund',
  '營業時間的问题',
  'replaced question 22',
  'replaced question 39',
  'How do I fix my password number 26?',
  '密码的问题 #13',
  'pasword numbr 33',
  '完全无关的问题',
];

function answers(index: RobotIndex): unknown[] {
  return QUESTIONS.map((question) => index.match(question, FORMAT5_NOW, DEFAULT_MATCH_SETTINGS));
}

for (const format of [5, 6]) {
  test(`a saved index of format ${format} opens and answers as the same rules indexed today`, () => {
    const bytes = fileBytes(`index-format${format}.kbix`);
    const saved = new SnapshotReader(bytes);
    assert.equal(saved.value<number>('format'), format);
    assert.equal(saved.hasArray('vocab.postingKeys.data'), format === 5);
    assert.equal(saved.arrayKind('vocab.postingWeights.data'), 'f32');
    const opened = loadRobotIndex(bytes);
    assert.ok(
      opened,
      `the format-${format} file was refused (its fingerprint: tokenisation changed?)`,
    );
    const fresh = createRobotIndex({ selfCalibration: false });
    fillFormat5Sample(fresh);
    assert.deepEqual(answers(opened), answers(fresh));
    // Removed and replaced rules' postings stay skipped: their old questions find nothing of them.
    const removed = opened.match('怎么办理退款 0', FORMAT5_NOW, DEFAULT_MATCH_SETTINGS);
    assert.notEqual(removed.kind === 'bestmatch' ? removed.top.ruleId : undefined, 'r0');

    // Writes after opening (a replacement finds its posting by key, a removal) behave the same.
    for (const index of [opened, fresh]) {
      index.upsert(matchableRule('r8', ['how do i fix my refund today']));
      index.remove('r22');
    }
    assert.deepEqual(answers(opened), answers(fresh));

    // Saved again, it is format 7: no keys beside the postings, weights as two-byte codes into
    // the table of distinct weights, the same answers once opened.
    const again = new Uint8Array(saveRobotIndex(opened));
    const reader = new SnapshotReader(again);
    assert.equal(reader.value<number>('format'), 7);
    assert.equal(reader.hasArray('vocab.postingKeys.data'), false);
    assert.equal(reader.hasArray('vocab.postingWeights.data'), false);
    assert.equal(reader.arrayKind('vocab.postingWeights.codes'), 'u16');
    const reopened = loadRobotIndex(again);
    assert.ok(reopened);
    assert.deepEqual(answers(reopened), answers(fresh));
  });
}
