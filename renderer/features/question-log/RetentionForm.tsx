import { useState } from 'react';
import type { ConsoleRobot } from '../../../electron/service/console-types';
import { ROBOT_SETTINGS } from '../../../electron/service/validation/console-schemas';
import type { RobotRef } from '../../api/console-client';
import { useToasts } from '../../components/useToasts';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';
import { useWorkspace } from '../../lib/workspace/useWorkspace';

const DAYS = ROBOT_SETTINGS.logRetentionDays;
const MEGABYTES = ROBOT_SETTINGS.logMaxMegabytes;

const valid = (text: string, schema: { minimum?: number; maximum?: number }) => {
  const value = Number(text);
  return (
    Number.isInteger(value) &&
    value >= (schema.minimum ?? -Infinity) &&
    value <= (schema.maximum ?? Infinity)
  );
};

/** How long the robot's question log is kept (robot settings logRetentionDays, logMaxMegabytes). */
export function RetentionForm({ robotRef, robot }: { robotRef: RobotRef; robot: ConsoleRobot }) {
  const { t } = useI18n();
  const { client, reload } = useWorkspace();
  const toasts = useToasts();
  const [days, setDays] = useState(String(robot.settings.logRetentionDays));
  const [megabytes, setMegabytes] = useState(String(robot.settings.logMaxMegabytes));
  const ok = valid(days, DAYS) && valid(megabytes, MEGABYTES);
  const changed =
    days !== String(robot.settings.logRetentionDays) ||
    megabytes !== String(robot.settings.logMaxMegabytes);
  return (
    <form
      className="qlog-retention"
      onSubmit={(event) => {
        event.preventDefault();
        if (!ok) return;
        client
          .patchRobot(robotRef, {
            settings: { logRetentionDays: Number(days), logMaxMegabytes: Number(megabytes) },
          })
          .then(
            () => {
              toasts.show(t('qlog.retentionSaved'));
              void reload();
            },
            (error: unknown) => toasts.show(describeError(t, error), { tone: 'error' }),
          );
      }}
    >
      <label>
        {t('qlog.retentionDays')}{' '}
        <input
          type="number"
          className="number-input"
          min={DAYS.minimum}
          max={DAYS.maximum}
          value={days}
          aria-invalid={!valid(days, DAYS)}
          onChange={(event) => setDays(event.target.value)}
        />
      </label>
      <label>
        {t('qlog.retentionMegabytes')}{' '}
        <input
          type="number"
          className="number-input"
          min={MEGABYTES.minimum}
          max={MEGABYTES.maximum}
          value={megabytes}
          aria-invalid={!valid(megabytes, MEGABYTES)}
          onChange={(event) => setMegabytes(event.target.value)}
        />
      </label>
      <button type="submit" className="button button-small" disabled={!ok || !changed}>
        {t('common.save')}
      </button>
    </form>
  );
}
