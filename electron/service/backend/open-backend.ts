/**
 * Opens the backend a configuration names: a team server's node when it has a database URL,
 * else the embedded store.
 * @module
 */
import type { ServiceConfig } from '../config';
import { isTeamServer } from './backend';
import type { Backend } from './backend';
import { openEmbedded } from './embedded';
import { openTeamServer } from './team-server';

export function openBackend(config: ServiceConfig): Promise<Backend> {
  return isTeamServer(config) ? openTeamServer(config) : openEmbedded(config);
}
