import { useContext } from 'react';
import type { ConsoleRobot, ConsoleTenant } from '../../../electron/service/console-types';
import { WorkspaceContext } from './workspace-context';
import type { WorkspaceState } from './workspace-context';

export function useWorkspace(): WorkspaceState {
  const state = useContext(WorkspaceContext);
  if (!state) throw new Error('useWorkspace outside WorkspaceProvider');
  return state;
}

export function findTenant(state: WorkspaceState, tenantId: number): ConsoleTenant | undefined {
  return state.workspace.tenants.find((tenant) => tenant.tenantId === tenantId);
}

export function findRobot(
  state: WorkspaceState,
  tenantId: number,
  robotId: string,
): ConsoleRobot | undefined {
  return findTenant(state, tenantId)?.robots.find((robot) => robot.robotId === robotId);
}
