/** Limits of the interface (service-interface.md) and of the contract (contract.md). */
export const LIMITS = {
  usernameMin: 2,
  usernameMax: 15,
  passwordMin: 6,
  passwordMax: 15,
  companyMax: 50,
  mailMax: 254,
  ruleNameMax: 200,
  questionsMax: 10,
  questionMax: 200,
  answerMax: 2000,
  rulesPerBatch: 1000,
  askUserIdMax: 36,
  askQuestionMax: 200,
  robotNameMax: 50,
  categoryMax: 50,
  /** A robot's synonyms: groups, members per group, characters per member. */
  synonymGroupsMax: 500,
  synonymMembersMax: 20,
  synonymMax: 50,
  /** Rules in a RECOMMEND answer at most: the length of the matcher's explanation list. */
  recommendMax: 10,
  /** A rule's menu entries, and its negative keywords (each at most `keywordMax` characters). */
  menuEntriesMax: 20,
  negativeKeywordsMax: 20,
  keywordMax: 50,
  /** The persona name of a robot's small talk. */
  personaMax: 50,
  pageSizeDefault: 20,
  pageSizeMax: 1000,
  /** 10 MiB: the largest legal batch of 1000 rules fits under it. */
  bodyBytesMax: 10 * 1024 * 1024,
  /**
   * A robot copied between services as one JSON bundle (domain/robot-bundles.ts): its export and
   * its import body. 128 MiB holds about 100,000 rules of five Chinese phrasings and a short
   * answer; parsed, it costs the receiving service a few hundred MB for the time of the import.
   */
  bundleBytesMax: 128 * 1024 * 1024,
  /** Rules and test cases in one bundle. */
  bundleRulesMax: 200_000,
  bundleTestCasesMax: 20_000,
  /** A timestamp is accepted this far from the server clock; a used signature is remembered as long. */
  timestampWindowMs: 300_000,
} as const;
