import type { RobotRef } from '../../api/console-client';
import { useI18n } from '../../i18n/useI18n';
import type { Route } from '../../lib/workspace/route';

/** The robot's inbox and dashboard, under its name in the sidebar. */
export function QuestionLogLinks({
  route,
  navigate,
  robot,
}: {
  route: Route;
  navigate: (route: Route) => void;
  robot: RobotRef;
}) {
  const { t } = useI18n();
  const links = [
    { kind: 'robot-inbox', label: t('inbox.title') },
    { kind: 'robot-dashboard', label: t('dashboard.title') },
  ] as const;
  return (
    <>
      {links.map((link) => (
        <button
          key={link.kind}
          type="button"
          aria-current={route.kind === link.kind ? 'page' : undefined}
          className={route.kind === link.kind ? 'tree-settings active' : 'tree-settings'}
          onClick={() => navigate({ kind: link.kind, ...robot })}
        >
          {link.label}
        </button>
      ))}
    </>
  );
}
