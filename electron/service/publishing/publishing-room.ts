/**
 * The publishing room as the host builds it: the published editions (the domain's context
 * carries them as its publishing hooks) and the test runs under way.
 * @module
 */
import type { DomainContext } from '../domain/context';
import { robotKey } from '../domain/robot-directory';
import type { Robot } from '../domain/robot-directory';
import { patchRobot } from '../domain/robots';
import type { PublishMode, VersionRecord } from '../publishing-types';
import type { IndexCodec, SavedIndexes } from '../domain/robot-loading';
import type { PublishedEditions } from './published-editions';
import { impactGate, impactOf } from './impact';
import type { LoggedAsks, PublishGate, ReplayOptions } from './impact';
import { ImpactJobs } from './impact-jobs';
import { ImpactWarmer } from './impact-warm';
import { RunJobs } from './run-jobs';
import { publishInQueue } from './versions';

/** A domain context whose publishing hooks are these published editions. */
export type PublishingContext = DomainContext & { readonly publishing: PublishedEditions };

export class PublishingRoom {
  readonly editions: PublishedEditions;
  readonly runs: RunJobs;
  /** Impact previews under way (impact-jobs.ts). */
  readonly impacts: ImpactJobs;
  /** The publish gate on customers' questions (a no-op without a question log). */
  readonly impactGate: PublishGate;
  /** The published side of the next preview, worked out ahead (impact-warm.ts). */
  readonly impactWarmer: ImpactWarmer;
  /** The version the last change of mode of a robot published (read back by `switchMode`). */
  private readonly switched = new Map<string, VersionRecord>();

  /**
   * `ctx` was built with its editions (`new PublishedEditions(parts)`) as `publishing`; `asks`
   * reads the question log (impact previews and their gate), null without one; `replay`: where
   * the previews replay (impact.ts's `ReplayOptions`: tests put every one on the worker).
   */
  constructor(
    readonly ctx: PublishingContext,
    readonly asks: LoggedAsks | null = null,
    readonly replay: ReplayOptions = {},
  ) {
    this.editions = ctx.publishing;
    // A change of mode does not change answers: what the openapi answered until now (the
    // draft, in live mode) is published first, when the latest version is not already it.
    // The version says so as a fact (`modeSwitch`), which the editor words in its language.
    this.editions.onModeChange = async (robot: Robot, actor: string) => {
      if (!(await ctx.store.versions.draftDiffers(robot))) return;
      this.switched.set(
        robotKey(robot),
        await publishInQueue(ctx, this.editions, robot, {
          note: '',
          author: actor,
          confirmedFailures: null,
          modeSwitch: robot.settings.publishMode,
        }),
      );
    };
    this.runs = new RunJobs(ctx);
    this.impactWarmer = new ImpactWarmer(ctx, asks, replay);
    this.editions.onPublishedChanged = (robot) => this.impactWarmer.schedule(robot);
    this.impacts = new ImpactJobs(ctx, async (robot, request, watch) => {
      // A warm-up under way is asking the published side of this very preview.
      if (request.from === 'published') await this.impactWarmer.settled(robot);
      return impactOf(ctx, asks, robot, request, watch, replay);
    });
    this.impactGate = impactGate(ctx, asks, replay);
  }

  /**
   * Changes the robot's publish mode for `author` (the administrator chosen in the editor): the
   * draft is published first when it differs from the latest version, as a version of theirs.
   * Returns that version, or null when the draft was already the latest version (or the mode
   * was already `mode`).
   */
  async switchMode(
    robot: Robot,
    mode: PublishMode,
    author: string,
  ): Promise<{ robot: Robot; version: VersionRecord | null }> {
    const key = robotKey(robot);
    // A version an earlier change of mode published (over PATCH robot) is not this switch's.
    this.switched.delete(key);
    const changed = await patchRobot(this.ctx, robot, { settings: { publishMode: mode } }, author);
    const version = this.switched.get(key) ?? null;
    this.switched.delete(key);
    return { robot: changed, version };
  }

  /**
   * Opens or builds the published indexes of robots in review mode (at start, after the
   * robots); returns how many were built.
   */
  load(saved?: SavedIndexes, codec?: IndexCodec | null): Promise<number> {
    return this.editions.load(saved, codec);
  }

  /** Stops the background work (the service stops). */
  close(): void {
    this.impactWarmer.close();
  }
}
