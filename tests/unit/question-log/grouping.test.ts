import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeText } from '../../../electron/service/matching/normalize';
import { GroupIndex, termsOf } from '../../../electron/service/question-log/grouping';

test('terms are the matcher’s stemmed words and Han bigrams, stop characters (的) left out', () => {
  assert.deepEqual(termsOf('how do i reset passwords'), ['how', 'do', 'i', 'reset', 'password']);
  assert.deepEqual(termsOf('what is the price'), ['what', 'is', 'price']);
  assert.deepEqual(termsOf('我的快递在哪里'), ['我快', '快递', '递在', '在哪', '哪里']);
});

/** The group of each question, as they arrive. */
function grouped(index: GroupIndex, questions: readonly string[]): string[] {
  return questions.map((question) => index.groupOfKey(normalizeText(question)));
}

test('similar questions join the group of the first one as they arrive; unrelated ones stay apart', () => {
  const index = new GroupIndex();
  const groups = grouped(index, [
    'Where is my parcel?',
    'do you sell gift cards',
    'where is my parcel now',
    'Do you sell gift cards?',
    'do you sell gift cards online',
    '我的快递在哪里',
    '我的快递在哪里？',
  ]);
  const parcel = normalizeText('Where is my parcel?');
  const cards = normalizeText('do you sell gift cards');
  const han = normalizeText('我的快递在哪里');
  assert.deepEqual(groups, [parcel, cards, parcel, cards, cards, han, han]);
});

test('group ids are stable: a later, closer question does not move earlier ones', () => {
  const index = new GroupIndex();
  const first = grouped(index, ['reset my card pin', 'reset my card pin now'])[1];
  grouped(index, ['reset card pin now please', 'reset card pin now please today']);
  assert.equal(index.groupOfKey(normalizeText('reset my card pin now')), first);
});

test('groups as a store kept them are taken back: known questions keep their group', () => {
  const index = new GroupIndex();
  index.load(new Map([['where is my parcel now', 'where is my parcel']]));
  assert.equal(index.groupOfKey('where is my parcel now'), 'where is my parcel');
  assert.equal(index.groupOfKey('where is my parcel'), 'where is my parcel');
  assert.equal(index.groupOfKey('where is my parcel today'), 'where is my parcel');
});

test('a question without terms (only stop words or emoji) is a group of its own', () => {
  const index = new GroupIndex();
  const groups = grouped(index, ['😀', 'the', 'what is it']);
  assert.equal(new Set(groups).size, 3);
});
