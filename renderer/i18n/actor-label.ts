/**
 * Who made a change, in the user's words: the service records actor ids (`api` for the openapi
 * and console clients, `editor` for the desktop editor) beside administrators' usernames.
 * @module
 */
import type { Translate } from './types';

export function actorLabel(t: Translate, actor: string): string {
  if (actor === 'api') return t('actor.api');
  if (actor === 'editor') return t('actor.editor');
  return actor;
}
