/**
 * Authentication of a signed request in the contract's order (auth/verify.ts), with the robot of
 * a method-2 path resolved from the robot directory: a robot the directory does not know ends in
 * the contract's 404 (tenant or robot), after the 401 checks of the parameters.
 * @module
 */
import type { SignMethod } from '../auth/signature';
import { replayedSignature, verifySignedRequest } from '../auth/verify';
import type { VerifiedSignature, VerifierDeps } from '../auth/verify';
import type { DomainContext } from '../domain/context';
import type { Robot } from '../domain/robot-directory';
import { requireRobot } from '../domain/robots';
import { parseTenantId } from './path-params';

export interface SignedCall {
  query: Record<string, unknown>;
  /** The path as sent, before `?`: what the client signed. */
  uri: string;
  /** The path's ids, on method-2 routes. */
  tenantId?: string;
  robotId?: string;
}

export interface AuthDeps {
  ctx: DomainContext;
  verifier: VerifierDeps;
}

const ROBOT_UNKNOWN = Symbol('robot unknown');

/** Verifies the call; returns the path's robot on method-2 routes, null on method-1 routes. */
export async function authenticate(
  deps: AuthDeps,
  method: SignMethod,
  call: SignedCall,
): Promise<Robot | null> {
  let robot: Robot | null = null;
  let signature: VerifiedSignature;
  try {
    signature = verifySignedRequest(
      deps.verifier,
      method,
      call,
      () => {
        robot = deps.ctx.robots.get(parseTenantId(call.tenantId ?? ''), call.robotId ?? '') ?? null;
        if (!robot) throw ROBOT_UNKNOWN;
        return robot.secret;
      },
      call.robotId,
    );
  } catch (error) {
    // The tenant, or only the robot, is unknown: the store tells which 404 it is.
    if (error === ROBOT_UNKNOWN) {
      await requireRobot(deps.ctx, parseTenantId(call.tenantId ?? ''), call.robotId ?? '');
    }
    throw error;
  }
  const shared = deps.verifier.sharedSignatures;
  if (shared && !(await shared.use(signature.key, signature.timestampMs, signature.nowMs))) {
    throw replayedSignature();
  }
  return robot;
}
