import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SMALL_TALK, SMALL_TALK_LANGUAGES } from '../../../electron/service/chitchat/pack';

/*
 * The default persona is itself "an assistant" (智能小助手, your virtual assistant): an answer
 * that says "I am {persona}, an assistant" introduces the robot twice over.
 */
test('no small-talk answer calls the robot an assistant besides its persona name', () => {
  for (const intent of SMALL_TALK) {
    for (const language of SMALL_TALK_LANGUAGES) {
      const answer = intent[language].answer;
      assert.doesNotMatch(
        answer.replaceAll('{persona}', ''),
        /助手|助理|assistant/i,
        `${intent.id}.${language}: ${answer}`,
      );
    }
  }
});
