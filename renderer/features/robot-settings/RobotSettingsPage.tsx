import { useLayoutEffect, useRef, useState } from 'react';
import type { ConsoleRobot, ConsoleTenant } from '../../../electron/service/console-types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { SettingsCard } from '../../components/SettingsCard';
import { useI18n } from '../../i18n/useI18n';
import { DeleteRobotDialog } from '../trash/DeleteRobotDialog';
import { useLeaveGuard } from '../../lib/workspace/leave-guard';
import type { Route } from '../../lib/workspace/route';
import { AnswerTextsCard } from './AnswerTextsCard';
import { LanguageCard } from './LanguageCard';
import { ChitChatCard } from './ChitChatCard';
import { EmbeddingCard } from './EmbeddingCard';
import { SynonymsCard } from './SynonymsCard';
import { ThresholdsCard } from './ThresholdsCard';
import { useSettingsPage } from './useSettingsPage';

/**
 * How a robot answers: its language, texts, thresholds, synonyms, small talk and embedding model,
 * one section per subject, saved together by the one save bar (docs/decisions.md); each text and
 * threshold shows its default and can go back to it. The page opens at its top.
 */
export function RobotSettingsPage({
  tenant,
  robot,
  navigate,
}: {
  tenant: ConsoleTenant;
  robot: ConsoleRobot;
  navigate: (route: Route) => void;
}) {
  const { t, formatTime } = useI18n();
  const ref = { tenantId: tenant.tenantId, robotId: robot.robotId };
  const page = useSettingsPage(ref, robot);
  const form = page.settings;
  const leaving = useLeaveGuard(page.dirty);
  const top = useRef<HTMLDivElement>(null);
  // The scrolling area is shared by every screen: the page opens at its top, not where the
  // previous screen (or this robot's other page) was left.
  useLayoutEffect(() => {
    top.current?.scrollIntoView({ block: 'start' });
  }, [ref.tenantId, ref.robotId]);
  // Settings are not part of the draft (docs/decisions.md): in review mode the page says so.
  const inReview = robot.settings.publishMode === 'review';
  const [deleting, setDeleting] = useState(false);

  return (
    <div className="page settings-page" data-testid="settings-page" ref={top}>
      <header className="page-header">
        <div>
          <h1>
            {t('settings.title')} <span className="view-header-meta">{robot.name}</span>
          </h1>
          <p className="page-subtitle">{t('settings.intro', { robot: robot.name })}</p>
          {inReview ? (
            <p
              className="notice notice-warn settings-live-note"
              role="note"
              data-testid="settings-live-note"
            >
              {t('settings.liveInReview')}
            </p>
          ) : null}
        </div>
        <button
          type="button"
          className="button"
          onClick={() => navigate({ kind: 'robot', ...ref })}
        >
          ← {t('settings.backToRules')}
        </button>
      </header>
      <form
        id="settings-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void page.save();
        }}
      >
        <LanguageCard form={form} />
        <AnswerTextsCard form={form} />
        <ThresholdsCard form={form} />
        <SynonymsCard form={form} />
        <ChitChatCard form={page.chat} robot={robot} error={page.errorOf('chat')} />
        <EmbeddingCard
          form={page.embedding}
          robotRef={ref}
          robot={robot}
          error={page.errorOf('embedding')}
        />
      </form>
      <SettingsCard id="settings-delete-title" title={t('settings.deleteTitle')}>
        <div className="settings-delete">
          <p>{t('settings.deleteText')}</p>
          <button type="button" className="button button-danger" onClick={() => setDeleting(true)}>
            {t('robot.deleteConfirm')}
          </button>
        </div>
      </SettingsCard>
      {leaving.asking ? (
        <ConfirmDialog
          title={t('settings.unsavedTitle')}
          confirmLabel={t('settings.leave')}
          danger
          testId="leave-dialog"
          onConfirm={async () => leaving.leave()}
          onClose={leaving.stay}
        >
          <p>{t('settings.leaveConfirm')}</p>
        </ConfirmDialog>
      ) : null}
      {deleting ? (
        <DeleteRobotDialog
          tenantId={ref.tenantId}
          robot={robot}
          onDeleted={() => navigate({ kind: 'tenant', tenantId: ref.tenantId })}
          onClose={() => setDeleting(false)}
        />
      ) : null}
      <footer className="save-bar">
        <span className="save-bar-status" role="status" data-testid="settings-status">
          {form.blocked
            ? t('settings.fixFirst')
            : page.dirty
              ? t('settings.unsaved')
              : page.savedAt
                ? t('save.savedAt', { time: formatTime(page.savedAt) })
                : ''}
        </span>
        {inReview ? <span className="save-bar-note">{t('settings.liveShort')}</span> : null}
        <button type="button" className="button" disabled={!page.dirty} onClick={page.discard}>
          {t('settings.discard')}
        </button>
        <button
          type="submit"
          form="settings-form"
          className="button button-primary"
          disabled={!page.dirty || page.saving}
        >
          {t('settings.save')}
        </button>
      </footer>
    </div>
  );
}
