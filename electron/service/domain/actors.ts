/**
 * Who makes the changes of the request being served: the HTTP layer names the actor once per
 * request (a signed-in administrator's username on a team server, `editor` for the desktop
 * editor, `api` for the openapi), and the one path of rule changes (rule-changes.ts) reads it.
 * An AsyncLocalStorage, so that no route and no domain function has to pass it along.
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export const EDITOR_ACTOR = 'editor';
export const API_ACTOR = 'api';
/** Changes made outside any request (start-up work, tests of the domain). */
export const SYSTEM_ACTOR = 'system';

export class ActorScope {
  private readonly storage = new AsyncLocalStorage<string>();

  /** Runs `work` (and everything it starts) as done by `actor`. */
  run<T>(actor: string, work: () => T): T {
    return this.storage.run(actor, work);
  }

  current(): string {
    return this.storage.getStore() ?? SYSTEM_ACTOR;
  }
}
