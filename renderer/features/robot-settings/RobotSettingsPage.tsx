import { useState } from 'react';
import type { ConsoleRobot, ConsoleTenant } from '../../../electron/service/console-types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
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
import { useRobotSettings } from './useRobotSettings';

/**
 * How a robot answers: its language, texts, thresholds and synonyms, one section per subject;
 * each text and threshold shows its default and can go back to it.
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
  const form = useRobotSettings(ref, robot);
  const leaving = useLeaveGuard(form.dirty);
  // Settings are not part of the draft (docs/decisions.md): in review mode the page says so.
  const inReview = robot.settings.publishMode === 'review';
  const [deleting, setDeleting] = useState(false);

  return (
    <div className="page settings-page" data-testid="settings-page">
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
          void form.save();
        }}
      >
        <LanguageCard form={form} />
        <AnswerTextsCard form={form} />
        <ThresholdsCard form={form} />
        <SynonymsCard form={form} />
        {/* Saved on its own, with its own button. */}
        <ChitChatCard robotRef={ref} robot={robot} />
        <EmbeddingCard robotRef={ref} robot={robot} />
      </form>
      <section className="card settings-card" aria-labelledby="settings-delete-title">
        <header className="card-header">
          <h2 id="settings-delete-title">{t('settings.deleteTitle')}</h2>
        </header>
        <div className="settings-body settings-delete">
          <p>{t('settings.deleteText')}</p>
          <button type="button" className="button button-danger" onClick={() => setDeleting(true)}>
            {t('robot.deleteConfirm')}
          </button>
        </div>
      </section>
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
            : form.dirty
              ? t('settings.unsaved')
              : form.savedAt
                ? t('save.savedAt', { time: formatTime(form.savedAt) })
                : ''}
        </span>
        {inReview ? <span className="save-bar-note">{t('settings.liveShort')}</span> : null}
        <button type="button" className="button" disabled={!form.dirty} onClick={form.discard}>
          {t('settings.discard')}
        </button>
        <button
          type="submit"
          form="settings-form"
          className="button button-primary"
          disabled={!form.dirty || form.saving}
        >
          {t('settings.save')}
        </button>
      </footer>
    </div>
  );
}
