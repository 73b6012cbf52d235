import type { ConsoleRobot, ConsoleTenant } from '../../../electron/service/console-types';
import { useI18n } from '../../i18n/useI18n';
import { useLeaveGuard } from '../workspace/leave-guard';
import type { Route } from '../workspace/route';
import { AnswerTextsCard } from './AnswerTextsCard';
import { ChitChatCard } from './ChitChatCard';
import { SynonymsCard } from './SynonymsCard';
import { ThresholdsCard } from './ThresholdsCard';
import { useRobotSettings } from './useRobotSettings';

/**
 * How a robot answers: its texts, thresholds and synonyms. One section per subject, so that
 * more (the robot's language) can be added as sections of their own.
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
  useLeaveGuard(form.dirty, t('settings.leaveConfirm'));

  return (
    <div className="page settings-page" data-testid="settings-page">
      <header className="page-header">
        <div>
          <h1>
            {t('settings.title')} <span className="view-header-meta">{robot.name}</span>
          </h1>
          <p className="page-subtitle">{t('settings.intro', { robot: robot.name })}</p>
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
        <AnswerTextsCard form={form} />
        <ThresholdsCard form={form} />
        <SynonymsCard form={form} />
        {/* Saved on its own, with its own button. */}
        <ChitChatCard robotRef={ref} robot={robot} />
      </form>
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
