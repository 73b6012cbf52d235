import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupSimilar, termsOf } from '../../../electron/service/question-log/grouping';

test('terms are the matcher’s stemmed words and Han bigrams, stop characters (的) left out', () => {
  assert.deepEqual(termsOf('how do i reset passwords'), ['how', 'do', 'i', 'reset', 'password']);
  assert.deepEqual(termsOf('what is the price'), ['what', 'is', 'price']);
  assert.deepEqual(termsOf('我的快递在哪里'), ['我快', '快递', '递在', '在哪', '哪里']);
});

test('similar questions are one group, most frequent first; unrelated ones stay apart', () => {
  const questions = [
    'Where is my parcel?',
    'where is my parcel',
    'where is my parcel now',
    'parcel where is it',
    'do you sell gift cards',
    'Do you sell gift cards?',
    'do you sell gift cards',
    'do you sell gift cards online',
    '我的快递在哪里',
    '我的快递在哪里？',
  ];
  const groups = groupSimilar(questions, (q) => q);
  assert.deepEqual(
    groups.map((g) => [g.key, g.count, g.texts.map((x) => x.key)]),
    [
      ['do you sell gift cards', 4, ['do you sell gift cards', 'do you sell gift cards online']],
      [
        'where is my parcel',
        4,
        ['where is my parcel', 'parcel where is it', 'where is my parcel now'],
      ],
      ['我的快递在哪里', 2, ['我的快递在哪里']],
    ],
  );
});

test('a question without terms (only stop words or emoji) is a group of its own', () => {
  const groups = groupSimilar(['😀', 'the', 'what is it'], (q) => q);
  assert.equal(groups.length, 3);
});
