/**
 * Per-robot answer settings: the decision thresholds of the matcher, the language, the texts of
 * the RECOMMEND and NONE answers, and the synonym groups. Stored as JSON with the robot, holding only the keys
 * that were set: the others follow the defaults, including better defaults of later versions.
 * @module
 */
import { DEFAULT_MATCH_SETTINGS } from '../matching/index';
import type { MatchSettings } from '../matching/types';

export type SynonymGroups = readonly (readonly string[])[];

/** The language a robot answers in: its default texts are in it. */
export type RobotLanguage = 'zh' | 'en';

/**
 * `live`: every saved change is answered at once by the openapi; `review`: the openapi answers
 * the published version, and changes wait in the draft until published (docs/publishing.md).
 */
export type PublishMode = 'live' | 'review';

/**
 * Where a robot's embedding model comes from (docs/matching.md, "Fusion"): the service's default
 * provider (flags, environment; none: lexical matching only), none, or the robot's own.
 */
export type EmbeddingMode = 'default' | 'off' | 'custom';
export type EmbeddingApiName = 'openai' | 'ollama';

export interface RobotSettings extends MatchSettings {
  /** Set by the editor, or else found from the robot's rules (robot-directory.ts). */
  language: RobotLanguage;
  recommendText: string;
  fallbackText: string;
  /** Groups of interchangeable words or phrases in this robot's knowledge base. */
  synonyms: SynonymGroups;
  /** Days the question log keeps (docs/question-log.md). */
  logRetentionDays: number;
  /** Largest size of the question log on disk, in MB: the oldest days go first. */
  logMaxMegabytes: number;
  /** Small talk (module CHAT) when no rule matches better (docs/conversation.md). */
  chitChat: boolean;
  /** The name small-talk answers give the assistant. */
  persona: string;
  /** Small-talk answers of this robot, replacing the pack's, keyed `intent.language`. */
  chitChatAnswers: Readonly<Record<string, string>>;
  publishMode: PublishMode;
  /**
   * The publish gate on customers' questions (docs/publishing.md): a publish is refused when
   * more than this percentage of last week's asks would be answered differently. 100: off.
   */
  impactGatePercent: number;
  embeddingMode: EmbeddingMode;
  /** The robot's own provider (`custom`): its wire shape, base URL and model. */
  embeddingApi: EmbeddingApiName;
  embeddingBase: string;
  embeddingModel: string;
  /** Longest wait for a question's vector before answering from the lexical channel alone. */
  embeddingTimeoutMs: number;
  /**
   * The provider's API key: a secret, never returned by any route (the console shows only
   * whether one is set) nor logged, left out of robot bundles.
   */
  embeddingApiKey: string;
}

/** Settings no route returns. */
export const SECRET_SETTINGS = ['embeddingApiKey'] as const;

/** A robot's settings without its secrets (what the console and bundles may show). */
export function withoutSecrets<T extends Partial<RobotSettings>>(
  settings: T,
): Omit<T, (typeof SECRET_SETTINGS)[number]> {
  const rest: Partial<RobotSettings> = { ...settings };
  for (const key of SECRET_SETTINGS) delete rest[key];
  return rest as Omit<T, (typeof SECRET_SETTINGS)[number]>;
}

/** Question log retention of a robot that did not set it. */
export const LOG_DEFAULTS = { logRetentionDays: 90, logMaxMegabytes: 500 };

/** The texts of a robot that never set them, in its language. */
const DEFAULT_TEXTS: Record<
  RobotLanguage,
  Pick<RobotSettings, 'recommendText' | 'fallbackText' | 'persona'>
> = {
  en: {
    persona: 'your virtual assistant',
    recommendText: 'Did you mean one of these questions?',
    fallbackText: "Sorry, I don't have an answer to that yet. Please try asking in another way.",
  },
  zh: {
    persona: '智能小助手',
    recommendText: '您是不是想问以下问题？',
    fallbackText: '抱歉，我暂时还不知道这个问题的答案，请换个问法试试。',
  },
};

/** The settings in force: the ones the robot set, over the defaults of its language. */
export function settingsInForce(
  stored: Partial<RobotSettings>,
  foundLanguage: RobotLanguage,
): RobotSettings {
  const language = stored.language ?? foundLanguage;
  return {
    ...DEFAULT_MATCH_SETTINGS,
    ...LOG_DEFAULTS,
    synonyms: [],
    chitChat: true,
    chitChatAnswers: {},
    publishMode: 'live',
    impactGatePercent: 100,
    embeddingMode: 'default',
    embeddingApi: 'openai',
    embeddingBase: '',
    embeddingModel: '',
    embeddingTimeoutMs: 300,
    embeddingApiKey: '',
    ...DEFAULT_TEXTS[language],
    ...stored,
    language,
  };
}

export const DEFAULT_ROBOT_SETTINGS: RobotSettings = settingsInForce({}, 'en');

const LANGUAGES: readonly string[] = ['zh', 'en'] satisfies RobotLanguage[];
const PUBLISH_MODES: readonly string[] = ['live', 'review'] satisfies PublishMode[];
const EMBEDDING_MODES: readonly string[] = ['default', 'off', 'custom'] satisfies EmbeddingMode[];
const EMBEDDING_APIS: readonly string[] = ['openai', 'ollama'] satisfies EmbeddingApiName[];

const isAnswerMap = (value: unknown): value is Record<string, string> =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.values(value).every((answer) => typeof answer === 'string');

const isSynonymGroups = (value: unknown): value is SynonymGroups =>
  Array.isArray(value) &&
  value.every((group) => Array.isArray(group) && group.every((m) => typeof m === 'string'));

/**
 * The settings a robot has set, from their stored JSON: only known keys with values of the right
 * type. Unreadable JSON counts as none, rather than making the robot unusable.
 */
export function parseStoredSettings(json: string): Partial<RobotSettings> {
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(json);
    if (parsed && typeof parsed === 'object') stored = parsed as Record<string, unknown>;
  } catch {
    return {};
  }
  const settings: Record<string, unknown> = {};
  for (const key of Object.keys(DEFAULT_ROBOT_SETTINGS) as (keyof RobotSettings)[]) {
    const value = stored[key];
    const fits =
      key === 'synonyms'
        ? isSynonymGroups(value)
        : key === 'chitChatAnswers'
          ? isAnswerMap(value)
          : key === 'language'
            ? typeof value === 'string' && LANGUAGES.includes(value)
            : key === 'publishMode'
              ? typeof value === 'string' && PUBLISH_MODES.includes(value)
              : key === 'embeddingMode'
                ? typeof value === 'string' && EMBEDDING_MODES.includes(value)
                : key === 'embeddingApi'
                  ? typeof value === 'string' && EMBEDDING_APIS.includes(value)
                  : typeof value === typeof DEFAULT_ROBOT_SETTINGS[key];
    if (fits) settings[key] = value;
  }
  return settings as Partial<RobotSettings>;
}
