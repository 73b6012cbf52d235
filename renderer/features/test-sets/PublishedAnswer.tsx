import { useEffect, useState } from 'react';
import type { TryResult } from '../../../electron/service/console-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import { publishingClient } from '../../api/publishing-client';
import { useI18n } from '../../i18n/useI18n';
import { findRobot, useWorkspace } from '../../lib/workspace/useWorkspace';

/**
 * In review mode, beside the draft's answer: what the published version (the API) answers to
 * the same question.
 */
export function PublishedAnswer({
  client,
  robotRef,
  question,
  draft,
}: {
  client: ConsoleClient;
  robotRef: RobotRef;
  question: string;
  draft: TryResult;
}) {
  const { t } = useI18n();
  const state = useWorkspace();
  const review =
    findRobot(state, robotRef.tenantId, robotRef.robotId)?.settings.publishMode === 'review';
  const [published, setPublished] = useState<{ question: string; result: TryResult } | null>(null);
  useEffect(() => {
    if (!review) return;
    let live = true;
    publishingClient(client, robotRef)
      .tryPublished(question)
      .then(
        (result) => live && setPublished({ question, result }),
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [client, robotRef, question, review]);
  if (!review || published?.question !== question) return null;
  const same = published.result.result.answer === draft.result.answer;
  return (
    <p className={same ? 'hint' : 'published-answer differs'} data-testid="published-answer">
      {same
        ? t('tests.publishedSame')
        : t('tests.publishedAnswers', { answer: published.result.result.answer })}
    </p>
  );
}
