/**
 * Small talk: the built-in pack (pack.ts) in one matching index, answered with module CHAT only
 * when the knowledge base has no BESTMATCH and small talk scores above every rule it considered
 * (docs/conversation.md, "Small talk").
 * @module
 */
import { DEFAULT_MATCH_SETTINGS, createRobotIndex, normalizeText } from '../matching/index';
import type { MatchDecision, MatchSettings, RobotIndex } from '../matching/types';
import { SMALL_TALK, SMALL_TALK_LANGUAGES } from './pack';
import type { SmallTalkLanguage } from './pack';

/** Lowest small-talk score answered: a near phrasing of the pack, not a guess. */
export const SMALL_TALK_MIN = 0.9;
/**
 * An inexact match must also explain most of the question: at least this share of its weight
 * (`coverage`) and of its content words (`content`). Questions that share only a frame with
 * small talk ("A股今天收盘怎么样" and "你今天过得怎么样", "buy now pay later" and "see you
 * later") cover 0.38–0.56 and 0.17–0.45 on our development sets; small talk phrased otherwise
 * than the pack 0.58 and more, and 0.5 and more.
 */
const COVERAGE_MIN = 0.55;
const CONTENT_MIN = 0.5;
/** A knowledge-base candidate scoring this much is set aside only for an exact small-talk phrasing. */
const KB_RECOMMEND_MAX = 0.5;

/** What a robot sets about small talk (its robot settings). */
export interface SmallTalkSettings {
  chitChat: boolean;
  /** The persona name answers use for `{persona}`. */
  persona: string;
  /** Answers replacing the pack's, keyed `intent.language` (`greeting.zh`). */
  chitChatAnswers: Readonly<Record<string, string>>;
}

export interface SmallTalkReply {
  answer: string;
  score: number;
  /** `intent.language`, e.g. `thanks.en`. */
  intent: string;
  /** The pack's phrasing that matched. */
  question: string;
}

/** The pack's default answer of `intent.language`, or undefined for an unknown key. */
export function defaultAnswer(key: string): string | undefined {
  const [id, language] = key.split('.');
  const intent = SMALL_TALK.find((candidate) => candidate.id === id);
  if (!intent || !SMALL_TALK_LANGUAGES.includes(language as SmallTalkLanguage)) return undefined;
  return intent[language as SmallTalkLanguage].answer;
}

/**
 * Longest question (code points) matched against the whole pack: small talk is short, and a
 * match costs about half of a knowledge-base match; longer questions are only looked up as
 * exact phrasings.
 */
const MATCHED_LENGTH_MAX = 40;
const HAN = /\p{Script=Han}/u;

/** The pack's phrasings after normalisation → `intent.language` and the phrasing. */
function exactPhrasings(): Map<string, { key: string; question: string }> {
  const exact = new Map<string, { key: string; question: string }>();
  for (const intent of SMALL_TALK) {
    for (const language of SMALL_TALK_LANGUAGES) {
      for (const question of intent[language].phrasings) {
        const normal = normalizeText(question);
        // A phrasing of both languages ("ok") answers in the language of its script.
        const own = HAN.test(normal) === (language === 'zh');
        if (!exact.has(normal) || own) {
          exact.set(normal, { key: `${intent.id}.${language}`, question });
        }
      }
    }
  }
  return exact;
}

/** Builds the pack's index (once per process: every robot shares it). */
function packIndex(): RobotIndex {
  const index = createRobotIndex({ selfCalibration: false });
  for (const intent of SMALL_TALK) {
    for (const language of SMALL_TALK_LANGUAGES) {
      const key = `${intent.id}.${language}`;
      index.upsert({
        ruleId: key,
        ruleName: key,
        questions: [...intent[language].phrasings],
        active: true,
        effectBeginMs: null,
        effectEndMs: null,
      });
    }
  }
  return index;
}

const SETTINGS: MatchSettings = { ...DEFAULT_MATCH_SETTINGS, bestmatchThreshold: SMALL_TALK_MIN };

export class SmallTalk {
  private index: RobotIndex | undefined;
  private exact: Map<string, { key: string; question: string }> | undefined;

  /**
   * Small talk for `question` when it fits better than the knowledge base's own decision `kb`:
   * never over a BESTMATCH, never under a rule that scores as well.
   */
  reply(
    question: string,
    kb: MatchDecision,
    settings: SmallTalkSettings,
    nowMs: number,
  ): SmallTalkReply | null {
    if (!settings.chitChat || kb.kind === 'bestmatch') return null;
    const kbTop = kb.candidates[0]?.score ?? 0;
    this.exact ??= exactPhrasings();
    const exact = this.exact.get(normalizeText(question));
    if (exact) return kbTop >= 1 ? null : this.answer(exact.key, exact.question, 1, settings);
    // A rule worth recommending is only set aside for small talk asked word for word.
    if (kbTop >= KB_RECOMMEND_MAX || [...question].length > MATCHED_LENGTH_MAX) return null;
    this.index ??= packIndex();
    const chat = this.index.match(question, nowMs, SETTINGS);
    if (chat.kind !== 'bestmatch' || chat.top.score < SMALL_TALK_MIN) return null;
    const { coverage = 0, content = 0 } = chat.top.parts;
    if (chat.top.score < 1 && (coverage < COVERAGE_MIN || content < CONTENT_MIN)) return null;
    if (kbTop >= chat.top.score) return null;
    return this.answer(chat.top.ruleId, chat.top.question, chat.top.score, settings);
  }

  private answer(
    key: string,
    question: string,
    score: number,
    settings: SmallTalkSettings,
  ): SmallTalkReply {
    const text = settings.chitChatAnswers[key] ?? defaultAnswer(key) ?? '';
    return {
      answer: text.replaceAll('{persona}', settings.persona),
      score,
      intent: key,
      question,
    };
  }
}
