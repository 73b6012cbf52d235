import type { FastifyInstance } from 'fastify';
import { SMALL_TALK, SMALL_TALK_LANGUAGES } from '../../../chitchat/pack';
import type { SmallTalkIntentView } from '../../../console-types';
import { success } from '../../envelope';
import { CONSOLE } from './workspace-routes';

/** The built-in small talk, for the editor's list of answers a robot may replace. */
export function registerSmallTalkRoute(app: FastifyInstance): void {
  const intents: SmallTalkIntentView[] = SMALL_TALK.flatMap((intent) =>
    SMALL_TALK_LANGUAGES.map((language) => ({
      key: `${intent.id}.${language}`,
      language,
      examples: intent[language].phrasings.slice(0, 3),
      answer: intent[language].answer,
    })),
  );
  app.get(`${CONSOLE}/small-talk`, { config: { console: true, teamScope: 'any' } }, async () =>
    success({ intents }),
  );
}
