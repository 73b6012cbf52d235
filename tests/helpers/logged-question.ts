/** Question log entries (a BESTMATCH at `at`, fields overridable) and their figures, for tests. */
import type { LoggedQuestion } from '../../electron/service/question-log-types';
import {
  MarkIndex,
  TextKeys,
  entryFigures,
} from '../../electron/service/question-log/entry-figures';
import { GroupIndex } from '../../electron/service/question-log/grouping';
import type { EntryFigures, Replay } from '../../electron/service/store/contract/question-log';

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

/** Figures as the question log makes them, for a store's tests: given settings, no marks. */
export function figuresMaker(settings = { lowScore: 0.97, evidenceScore: 0.7, margin: 0.1 }) {
  const context = {
    settings,
    marks: new MarkIndex(),
    groups: new GroupIndex(),
    keys: new TextKeys(),
  };
  const figuresOf = (entry: LoggedQuestion): EntryFigures | null => entryFigures(entry, context);
  const replay: Replay = { known: (groups) => context.groups.load(groups), figuresOf };
  return { figuresOf, replay, context };
}
