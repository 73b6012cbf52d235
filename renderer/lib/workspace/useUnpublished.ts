/**
 * A robot's unpublished changes in review mode (docs/publishing.md): the grid marks the rules,
 * the sidebar counts them. Read again, after a short pause, whenever `version` changes.
 * @module
 */
import { useEffect, useState } from 'react';
import type { UnpublishedChanges } from '../../../electron/service/publishing-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import { publishingClient } from '../../api/publishing-client';

/** Null in live mode (every saved change is answered), or until read. */
export function useUnpublished(
  client: ConsoleClient,
  ref: RobotRef,
  inReview: boolean,
  version: unknown,
): UnpublishedChanges | null {
  const [changes, setChanges] = useState<UnpublishedChanges | null>(null);
  const { tenantId, robotId } = ref;

  useEffect(() => {
    if (!inReview) {
      setChanges(null);
      return;
    }
    let cancelled = false;
    const timer = window.setTimeout(() => {
      publishingClient(client, { tenantId, robotId })
        .unpublished()
        .then(
          (read) => {
            if (!cancelled) setChanges(read);
          },
          () => {
            // A hint: the next change reads it again.
          },
        );
    }, 300);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [client, tenantId, robotId, inReview, version]);

  return changes;
}
