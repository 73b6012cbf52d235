import { useCallback, useEffect, useMemo, useState } from 'react';
import type {
  ConsoleCategory,
  ConsoleRobot,
  ConsoleTenant,
} from '../../../electron/service/console-types';
import type { PublishMode } from '../../../electron/service/publishing-types';
import { publishingClient } from '../../api/publishing-client';
import { ErrorMessage } from '../../components/ErrorMessage';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';
import { TestSetPanel } from '../test-sets/TestSetPanel';
import { ThresholdPanel } from '../test-sets/ThresholdChart';
import type { Route } from '../../lib/workspace/route';
import { useWorkspace } from '../../lib/workspace/useWorkspace';
import { ModeSwitchDialog } from './ModeSwitchDialog';
import { VersionsPanel } from './VersionsPanel';

type Tab = 'versions' | 'tests' | 'thresholds';

/** Draft and published knowledge: the publish mode, versions, the test set and thresholds. */
export function PublishingPage({
  tenant,
  robot,
  navigate,
}: {
  tenant: ConsoleTenant;
  robot: ConsoleRobot;
  navigate: (route: Route) => void;
}) {
  const { t } = useI18n();
  const { client, reload, workspace } = useWorkspace();
  const ref = useMemo(
    () => ({ tenantId: tenant.tenantId, robotId: robot.robotId }),
    [tenant.tenantId, robot.robotId],
  );
  const api = useMemo(() => publishingClient(client, ref), [client, ref]);
  const [tab, setTab] = useState<Tab>('versions');
  const [error, setError] = useState<unknown>(null);
  const [versionsKey, setVersionsKey] = useState(0);
  const [switching, setSwitching] = useState<PublishMode | null>(null);
  const [categories, setCategories] = useState<ConsoleCategory[]>([]);
  // On a team server the version is the signed-in administrator's.
  const authors = useMemo(
    () =>
      workspace.signedIn
        ? [workspace.signedIn.username]
        : [...tenant.users.map((user) => user.username), 'api'],
    [workspace.signedIn, tenant.users],
  );
  const [author, setAuthor] = useState(authors[0] ?? 'api');

  useEffect(() => {
    let live = true;
    client.categories(ref).then(
      (read) => live && setCategories(read.categories),
      (caught: unknown) => live && setError(caught),
    );
    return () => {
      live = false;
    };
  }, [client, ref]);
  const categoryName = useCallback(
    (id: string) =>
      id === ''
        ? t('rules.noCategory')
        : (categories.find((category) => category.categoryId === id)?.name ?? id),
    [categories, t],
  );

  return (
    <div className="page publishing-page" data-testid="publishing-page">
      <header className="page-header">
        <div>
          <h1>
            {t('publishing.title')} <span className="view-header-meta">{robot.name}</span>
          </h1>
          <p className="page-subtitle">{t(`publishing.mode.${robot.settings.publishMode}.text`)}</p>
          {robot.settings.publishMode === 'review' ? (
            <p className="hint" data-testid="settings-live-note">
              {t('publishing.settingsLive')}
            </p>
          ) : null}
        </div>
        <div className="toolbar-group">
          <label>
            {t('publishing.modeLabel')}{' '}
            <select
              aria-label={t('publishing.modeLabel')}
              value={robot.settings.publishMode}
              onChange={(event) =>
                setSwitching(event.target.value === 'review' ? 'review' : 'live')
              }
            >
              <option value="live">{t('publishing.mode.live')}</option>
              <option value="review">{t('publishing.mode.review')}</option>
            </select>
          </label>
          <button
            type="button"
            className="button"
            onClick={() => navigate({ kind: 'robot', ...ref })}
          >
            ← {t('settings.backToRules')}
          </button>
        </div>
      </header>
      {error ? <ErrorMessage>{describeError(t, error)}</ErrorMessage> : null}
      <div className="tabs" role="tablist">
        {(['versions', 'tests', 'thresholds'] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className={tab === name ? 'tab active' : 'tab'}
            onClick={() => setTab(name)}
          >
            {t(`publishing.tab.${name}`)}
          </button>
        ))}
      </div>
      {tab === 'versions' ? (
        <VersionsPanel
          key={versionsKey}
          api={api}
          authors={authors}
          author={author}
          onAuthor={setAuthor}
          robotName={robot.name}
          publishMode={robot.settings.publishMode}
          categoryName={categoryName}
          onPublished={() => void reload()}
          impactGatePercent={robot.settings.impactGatePercent}
          onSaveImpactGate={async (percent) => {
            await client.patchRobot(ref, { settings: { impactGatePercent: percent } });
            await reload();
          }}
          onOpenRule={(ruleId) => navigate({ kind: 'robot', ...ref, ruleId })}
          onTry={(question) => navigate({ kind: 'robot', ...ref, tryQuestion: question })}
        />
      ) : null}
      {tab === 'tests' ? (
        <TestSetPanel
          api={api}
          client={client}
          robotRef={ref}
          onOpenRule={(ruleId) => navigate({ kind: 'robot', ...ref, ruleId })}
        />
      ) : null}
      {tab === 'thresholds' ? (
        <ThresholdPanel api={api} client={client} robotRef={ref} onSaved={() => void reload()} />
      ) : null}
      {switching ? (
        <ModeSwitchDialog
          api={api}
          mode={switching}
          authors={authors}
          author={author}
          onAuthor={setAuthor}
          onSwitched={async () => {
            await reload();
            setVersionsKey((k) => k + 1);
          }}
          onClose={() => setSwitching(null)}
        />
      ) : null}
    </div>
  );
}
