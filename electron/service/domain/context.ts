import type { Logger } from '../logger';
import type { Store } from '../storage/database';
import type { RobotRegistry } from './robot-registry';

/** What every domain operation needs, passed explicitly (no module-level singletons). */
export interface DomainContext {
  store: Store;
  robots: RobotRegistry;
  now: () => number;
  logger: Logger;
}
