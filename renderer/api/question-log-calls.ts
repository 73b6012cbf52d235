/**
 * The question log's console routes (electron/service/question-log-types.ts), added to the
 * console client.
 * @module
 */
import type {
  Dashboard,
  InboxAddPhrasings,
  InboxAddResult,
  InboxGroup,
  InboxNewRule,
  InboxTestCases,
  InboxTestCasesResult,
  QuestionLogPage,
  RuleAnalytics,
  RuleAnalyticsPage,
  RuleHits,
} from '../../electron/service/question-log-types';

type Call = <T>(method: string, path: string, body?: unknown) => Promise<T>;

export interface LogQuery {
  /** ISO times: entries from (included) and before (excluded). */
  from?: string;
  to?: string;
  /** A page's `next`: the entries older than it. */
  before?: string;
  offset?: number;
  limit?: number;
  q?: string;
  outcome?: 'answered' | 'recommended' | 'fallback';
  source?: 'api' | 'try';
  ruleId?: string;
  userId?: string;
}

export function questionLogCalls<Ref>(call: Call, robot: (ref: Ref) => string) {
  return {
    questionLog: (ref: Ref, query: LogQuery = {}) => {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) {
        if (value !== undefined && value !== '') params.set(key, String(value));
      }
      return call<QuestionLogPage>('GET', `${robot(ref)}/question-log?${params.toString()}`);
    },
    clearQuestionLog: (ref: Ref) =>
      call<{ removed: number }>('POST', `${robot(ref)}/question-log/clear`),
    inbox: (ref: Ref, limit = 50) =>
      call<{ groups: InboxGroup[] }>('GET', `${robot(ref)}/inbox?limit=${limit}`),
    inboxAddPhrasings: (ref: Ref, key: string, ruleId: string, questions: string[]) => {
      const body: InboxAddPhrasings = { key, ruleId, questions };
      return call<InboxAddResult>('POST', `${robot(ref)}/inbox/add-phrasings`, body);
    },
    inboxNewRule: (ref: Ref, body: InboxNewRule) =>
      call<{ ruleId: string }>('POST', `${robot(ref)}/inbox/new-rule`, body),
    inboxTestCases: (ref: Ref, body: InboxTestCases) =>
      call<InboxTestCasesResult>('POST', `${robot(ref)}/inbox/test-cases`, body),
    inboxDismiss: (ref: Ref, keys: string[]) =>
      call<{ dismissed: number }>('POST', `${robot(ref)}/inbox/dismiss`, { keys }),
    ruleHits: (ref: Ref) => call<{ rules: RuleHits[] }>('GET', `${robot(ref)}/rule-hits`),
    analytics: (ref: Ref) => call<RuleAnalytics>('GET', `${robot(ref)}/analytics`),
    /** A page of rule analytics: its rules in creation order, the robot's pairs and top hits. */
    analyticsPage: (ref: Ref, offset: number, limit: number) =>
      call<RuleAnalyticsPage>('GET', `${robot(ref)}/analytics?offset=${offset}&limit=${limit}`),
    dashboard: (ref: Ref, days = 30) =>
      call<Dashboard>('GET', `${robot(ref)}/dashboard?days=${days}`),
  };
}
