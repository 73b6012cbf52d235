import { useState } from 'react';
import type { ConsoleClient } from './api/console-client';
import type { EditorSession } from './api/session';
import { EmptyState } from './components/EmptyState';
import { useHotkeys } from './components/useHotkeys';
import { ApiAccessPage } from './features/api-access/ApiAccessPage';
import { DashboardPage } from './features/dashboard/DashboardPage';
import { HelpOverlay } from './features/help/HelpOverlay';
import { InboxPage } from './features/inbox/InboxPage';
import { PublishingPage } from './features/publishing/PublishingPage';
import { RobotSettingsPage } from './features/robot-settings/RobotSettingsPage';
import { RulesView } from './features/rules-grid/RulesView';
import { SessionsDialog } from './features/sign-in/SessionsDialog';
import { TrashPage } from './features/trash/TrashPage';
import { RegisterTenantDialog } from './features/workspace/RegisterTenantDialog';
import type { Route } from './lib/workspace/route';
import { Sidebar } from './features/workspace/Sidebar';
import { TenantPage } from './features/workspace/TenantPage';
import { useRoute } from './lib/workspace/useRoute';
import { findRobot, findTenant, useWorkspace } from './lib/workspace/useWorkspace';
import { WorkspaceProvider } from './features/workspace/WorkspaceProvider';
import { LanguageSwitch } from './i18n/LanguageSwitch';
import { useI18n } from './i18n/useI18n';

/** `session`: signed in to a team server, with a way out. */
export function App({
  client,
  session,
  onSignOut,
}: {
  client: ConsoleClient;
  session?: EditorSession;
  onSignOut?: () => void;
}) {
  return (
    <WorkspaceProvider client={client}>
      <Shell client={client} session={session} onSignOut={onSignOut} />
    </WorkspaceProvider>
  );
}

function Shell({
  client,
  session,
  onSignOut,
}: {
  client: ConsoleClient;
  session?: EditorSession;
  onSignOut?: () => void;
}) {
  const { t, locale, setLocale } = useI18n();
  const [route, navigate] = useRoute();
  const [registering, setRegistering] = useState(false);
  const [sessions, setSessions] = useState(false);
  const [help, setHelp] = useState(false);

  useHotkeys({
    f1: { run: () => setHelp(true) },
    '?': { run: () => setHelp(true), typing: false },
    'alt+l': { run: () => setLocale(locale === 'en' ? 'zh-CN' : 'en') },
  });

  return (
    <div className="app">
      <header className="app-header">
        <span className="app-title">KB Studio</span>
        <div className="app-header-end">
          {session ? (
            <span className="signed-in-as muted" data-testid="signed-in-as">
              {t('signIn.signedInAs', { username: session.username, company: session.company })}
            </span>
          ) : null}
          {session && onSignOut ? (
            <>
              <button
                type="button"
                className="button button-small"
                onClick={() => setSessions(true)}
              >
                {t('sessions.open')}
              </button>
              <button type="button" className="button button-small" onClick={onSignOut}>
                {t('signIn.signOut')}
              </button>
            </>
          ) : null}
          <LanguageSwitch />
          <button
            type="button"
            className="button button-small"
            onClick={() => setHelp(true)}
            title="F1"
          >
            {t('help.button')}
          </button>
        </div>
      </header>
      <div className="app-body">
        <Sidebar route={route} navigate={navigate} onRegister={() => setRegistering(true)} />
        <main className="app-main">
          <MainView route={route} navigate={navigate} onRegister={() => setRegistering(true)} />
        </main>
      </div>
      {registering ? (
        <RegisterTenantDialog
          onClose={() => setRegistering(false)}
          onRegistered={(tenantId) => {
            setRegistering(false);
            navigate({ kind: 'tenant', tenantId });
          }}
        />
      ) : null}
      {help ? <HelpOverlay onClose={() => setHelp(false)} /> : null}
      {sessions && onSignOut ? (
        <SessionsDialog
          client={client}
          onClose={() => setSessions(false)}
          onSignedOut={() => {
            setSessions(false);
            onSignOut();
          }}
        />
      ) : null}
    </div>
  );
}

function MainView({
  route,
  navigate,
  onRegister,
}: {
  route: Route;
  navigate: (route: Route) => void;
  onRegister: () => void;
}) {
  const { t } = useI18n();
  const state = useWorkspace();
  if (route.kind === 'api') return <ApiAccessPage />;
  if (route.kind === 'trash') return <TrashPage />;
  if (route.kind === 'tenant') return <TenantPage tenantId={route.tenantId} navigate={navigate} />;
  if (
    route.kind === 'robot' ||
    route.kind === 'robot-settings' ||
    route.kind === 'robot-inbox' ||
    route.kind === 'robot-dashboard' ||
    route.kind === 'robot-publishing'
  ) {
    const tenant = findTenant(state, route.tenantId);
    const robot = findRobot(state, route.tenantId, route.robotId);
    const key = `${route.tenantId}/${route.robotId}`;
    if (tenant && robot && route.kind === 'robot-inbox') {
      return <InboxPage key={key} tenant={tenant} robot={robot} />;
    }
    if (tenant && robot && route.kind === 'robot-dashboard') {
      return <DashboardPage key={key} tenant={tenant} robot={robot} />;
    }
    if (tenant && robot && route.kind === 'robot-publishing') {
      return <PublishingPage key={key} tenant={tenant} robot={robot} navigate={navigate} />;
    }
    if (tenant && robot && route.kind === 'robot-settings') {
      return <RobotSettingsPage key={key} tenant={tenant} robot={robot} navigate={navigate} />;
    }
    if (tenant && robot) {
      return (
        <RulesView
          key={key}
          tenant={tenant}
          robot={robot}
          navigate={navigate}
          openRuleId={route.kind === 'robot' ? route.ruleId : undefined}
          tryQuestion={route.kind === 'robot' ? route.tryQuestion : undefined}
        />
      );
    }
    return <EmptyState title={t('robot.notFound')}>{t('robot.notFoundText')}</EmptyState>;
  }
  const first = state.workspace.tenants[0];
  if (!first) {
    return (
      <EmptyState
        title={t('home.welcome')}
        action={
          <button type="button" className="button button-primary" onClick={onRegister}>
            + {t('tenant.registerTitle')}
          </button>
        }
      >
        {t('home.noTenants')}
      </EmptyState>
    );
  }
  return (
    <EmptyState title={t('home.pick')}>
      {t('home.pickText', { count: state.workspace.tenants.length })}
    </EmptyState>
  );
}
