import { createContext } from 'react';
import type { ConsoleWorkspace } from '../../../electron/service/console-types';
import type { ConsoleClient } from '../../api/console-client';

export interface WorkspaceState {
  client: ConsoleClient;
  workspace: ConsoleWorkspace;
  /** Reads the workspace again (after a change to tenants, users or robots). */
  reload: () => Promise<void>;
}

export const WorkspaceContext = createContext<WorkspaceState | null>(null);
