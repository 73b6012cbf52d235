/**
 * The embedding models of the service's robots (docs/matching.md, "Fusion"): given to the domain
 * as its `SemanticSearch` port (domain/ports.ts). A question is embedded once (recent questions
 * from memory), within the robot's deadline; on a timeout, a failed call or a vector of another
 * length the question is answered from the lexical channel alone, and the note says why. Never
 * throws into an ask.
 * @module
 */
import type { EmbeddingStatus, EmbeddingTest, SemanticNote } from '../console-types';
import type { Logger } from '../logger';
import { fusionActive } from '../matching/fusion';
import type { CandidateChannel, RobotIndex } from '../matching/types';
import type { FusionExampleStore } from '../store/contract/fusion-examples';
import type { VectorCache } from '../store/contract/vectors';
import { EmbeddingFailure, embedTexts } from './provider-client';
import type { EmbeddingProvider } from './provider-client';
import { providerOf, sameProvider } from './provider-settings';
import type { DefaultEmbedding, EmbeddingSettings } from './provider-settings';
import { RobotSemantic } from './robot-semantic';
import { whileSent } from './while-sent';

/** What this room needs of a robot (the domain's `Robot` is one). */
export interface SemanticRobot {
  readonly tenantId: number;
  readonly robotId: string;
  readonly settings: EmbeddingSettings;
}

/** A question's channel, or why there is none; null: the robot has no provider. */
export interface SemanticAnswer {
  channel?: CandidateChannel;
  note: SemanticNote;
}

/** The deadline of a connection test. */
const TEST_TIMEOUT_MS = 10_000;

export class SemanticSearch {
  private readonly robots = new Map<string, RobotSemantic>();

  constructor(
    private readonly options: {
      cache: VectorCache;
      /** Where each robot's traffic examples are kept across restarts (none: in memory only). */
      examples?: FusionExampleStore;
      /** Whether a write of the robot's is queued or running (its embedding waits for quiet). */
      writing?: (robot: { tenantId: number; robotId: string }) => boolean;
      defaults: DefaultEmbedding | null;
      logger: Logger;
    },
  ) {}

  /** The robot's state for its provider of the moment (made anew when the provider changed). */
  private stateOf(robot: SemanticRobot): RobotSemantic | null {
    const key = `${robot.tenantId}/${robot.robotId}`;
    const wanted = providerOf(robot.settings, this.options.defaults);
    let state = this.robots.get(key);
    if (
      state &&
      (!wanted ||
        !sameProvider(state.provider, wanted.provider) ||
        state.timeoutMs !== wanted.timeoutMs)
    ) {
      // Another model's examples do not carry over (the next save overwrites them).
      void state.close(false);
      this.robots.delete(key);
      state = undefined;
    }
    if (!wanted) return null;
    if (!state) {
      state = new RobotSemantic({
        provider: wanted.provider,
        timeoutMs: wanted.timeoutMs,
        source: robot.settings.embeddingMode === 'custom' ? 'custom' : 'default',
        cache: this.options.cache,
        ...(this.options.examples
          ? {
              examples: {
                store: this.options.examples,
                robot: { tenantId: robot.tenantId, robotId: robot.robotId },
              },
            }
          : {}),
        logger: this.options.logger,
        ...(this.options.writing ? { writing: () => this.options.writing?.(robot) === true } : {}),
        decision: () => ({
          bestmatchThreshold: robot.settings.bestmatchThreshold,
          margin: robot.settings.margin,
        }),
      });
      this.robots.set(key, state);
    }
    return state;
  }

  /** Follows the index's rules (embedding them in the background) if the robot has a provider. */
  follow(robot: SemanticRobot, index: RobotIndex): void {
    this.stateOf(robot)?.semanticOf(index);
  }

  /** The robot went away (or out of memory): its vectors leave memory, its examples are saved. */
  forget(robot: { tenantId: number; robotId: string }): void {
    const key = `${robot.tenantId}/${robot.robotId}`;
    void this.robots.get(key)?.close();
    this.robots.delete(key);
  }

  async channel(
    robot: SemanticRobot,
    index: RobotIndex,
    question: string,
    meanwhile?: () => void,
  ): Promise<SemanticAnswer | null> {
    const state = this.stateOf(robot);
    if (!state) return null;
    const semantic = state.semanticOf(index);
    const model = state.provider.model;
    const text = question.trim();
    const started = performance.now();
    let vector = state.questions.get(text);
    if (vector === undefined && text !== '') {
      try {
        [vector] = await whileSent(embedTexts(state.provider, [text], state.timeoutMs), meanwhile);
      } catch (error) {
        const failure = error instanceof EmbeddingFailure ? error : null;
        const message = error instanceof Error ? error.message : String(error);
        state.noteFailure(failure?.kind ?? 'network', message);
        state.noteQuestion(false);
        const ms = Math.round(performance.now() - started);
        return {
          note: { state: failure?.kind === 'timeout' ? 'timeout' : 'failed', model, ms, message },
        };
      }
      if (vector) state.questions.set(text, vector);
    }
    const ms = Math.round(performance.now() - started);
    const dimensions = state.space.dimensions;
    if (vector === undefined || dimensions === 0) {
      return { note: { state: 'pending', model, ms } };
    }
    if (vector.length !== dimensions) {
      const message = `the question's vector has ${vector.length} numbers, the rules' ${dimensions}`;
      state.noteFailure('dimension', message);
      state.noteQuestion(false);
      return { note: { state: 'dimension', model, ms, message } };
    }
    state.noteQuestion(true);
    const { model: fitted, current } = semantic.calibration;
    const active = fusionActive(fitted);
    const note: SemanticNote = {
      state: active ? 'fused' : current && fitted.probes > 0 ? 'unweighted' : 'pending',
      model,
      ms,
      ...(active
        ? {
            weights: {
              gap: Math.round(fitted.gap * 1000) / 1000,
              cosine: Math.round(fitted.cosine * 1000) / 1000,
              offset: fitted.offset,
            },
          }
        : {}),
    };
    return {
      channel: semantic.channel(vector, { question: text, decision: state.decision() }),
      note,
    };
  }

  /** The robot's model at work; null when it has none. */
  status(robot: SemanticRobot, draft: RobotIndex): EmbeddingStatus | null {
    const state = this.stateOf(robot);
    if (!state) return null;
    state.semanticOf(draft);
    return state.status(draft);
  }

  /**
   * One text embedded by `provider` (the robot's own when not given; its stored key when the
   * test gives none): the model's vector length and the call's time, or why it failed.
   */
  async test(robot: SemanticRobot, provider: EmbeddingProvider | null): Promise<EmbeddingTest> {
    const chosen = provider ?? providerOf(robot.settings, this.options.defaults)?.provider;
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    if (!chosen) {
      return {
        ok: false,
        failure: 'none',
        message: 'The robot has no embedding provider.',
        latencyMs: 0,
      };
    }
    try {
      const [vector] = await embedTexts(
        chosen,
        ['KB Studio 连接测试 connection test'],
        TEST_TIMEOUT_MS,
      );
      return { ok: true, dimensions: vector?.length ?? 0, latencyMs: latency() };
    } catch (error) {
      const failure = error instanceof EmbeddingFailure ? error.kind : 'network';
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, failure, message, latencyMs: latency() };
    }
  }

  /** Stops every robot's background work; resolves once their examples are saved. */
  async stop(): Promise<void> {
    const saved = [...this.robots.values()].map((state) => state.close());
    this.robots.clear();
    await Promise.all(saved);
  }
}
