/**
 * The publishing room as the host builds it: the published editions (the domain's context
 * carries them as its publishing hooks) and the test runs under way.
 * @module
 */
import type { DomainContext } from '../domain/context';
import type { Robot } from '../domain/robot-directory';
import type { IndexCodec, SavedIndexes } from '../domain/robot-loading';
import type { PublishedEditions } from './published-editions';
import { RunJobs } from './run-jobs';
import { publishInQueue } from './versions';

/** A domain context whose publishing hooks are these published editions. */
export type PublishingContext = DomainContext & { readonly publishing: PublishedEditions };

export class PublishingRoom {
  readonly editions: PublishedEditions;
  readonly runs: RunJobs;

  /** `ctx` was built with its editions (`new PublishedEditions(parts)`) as `publishing`. */
  constructor(readonly ctx: PublishingContext) {
    this.editions = ctx.publishing;
    // A change of mode does not change answers: what the openapi answered until now (the
    // draft, in live mode) is published first, when the latest version is not already it.
    this.editions.onModeChange = async (robot: Robot) => {
      if (!(await ctx.store.versions.draftDiffers(robot))) return;
      await publishInQueue(ctx, this.editions, robot, {
        note: `publish mode: ${robot.settings.publishMode}`,
        author: 'api',
        confirmedFailures: null,
      });
    };
    this.runs = new RunJobs(ctx);
  }

  /**
   * Opens or builds the published indexes of robots in review mode (at start, after the
   * robots); returns how many were built.
   */
  load(saved?: SavedIndexes, codec?: IndexCodec | null): Promise<number> {
    return this.editions.load(saved, codec);
  }
}
