/** A question log entry for tests of the log's stores: a BESTMATCH at `at`, fields overridable. */
import type { LoggedQuestion } from '../../electron/service/question-log-types';

export function loggedQuestion(
  at: number,
  question = 'q',
  extra: Partial<LoggedQuestion> = {},
): LoggedQuestion {
  return {
    at,
    userId: 'u',
    channel: 'API',
    question,
    answerType: 'BESTMATCH',
    module: 'KB',
    score: 0.5,
    ruleId: 'r',
    recommended: [],
    version: null,
    source: 'api',
    chosenFrom: null,
    menuEntry: null,
    ...extra,
  };
}
