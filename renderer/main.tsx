import { StrictMode, useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import 'react-data-grid/lib/styles.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/grid.css';
import './styles/dialogs.css';
import './styles/settings.css';
import './styles/question-log.css';
import './styles/publishing.css';
import './styles/test-sets.css';
import { DEFAULT_API_PORT } from '../electron/service/defaults';
import { createConsoleClient } from './api/console-client';
import { fetchSignInMode, forgetSession, signOut, storedSession } from './api/session';
import type { EditorSession } from './api/session';
import { forgetConsoleToken, storedConsoleToken, takeConsoleToken } from './api/token';
import { App } from './App';
import { EmptyState } from './components/EmptyState';
import { Spinner } from './components/Spinner';
import { SignInPage } from './features/sign-in/SignInPage';
import type { SignInReason } from './features/sign-in/SignInPage';
import { ToastProvider } from './components/ToastProvider';
import { I18nProvider } from './i18n/I18nProvider';
import { useI18n } from './i18n/useI18n';

/**
 * The address the service prints for this editor: the page's own origin when the service served
 * it (the real port), else the default one.
 */
function editorAddress(): string {
  const { protocol, origin } = window.location;
  return protocol === 'http:' || protocol === 'https:'
    ? `${origin}/`
    : `http://127.0.0.1:${DEFAULT_API_PORT}/`;
}

/**
 * The desktop editor is opened with its token in its address; a team server's asks
 * for a username and password (features/sign-in) and keeps the session for the tab.
 */
function Root() {
  const { t } = useI18n();
  const [token] = useState(takeConsoleToken);
  const [signInMode, setSignInMode] = useState<boolean | null>(token ? false : null);
  useEffect(() => {
    if (signInMode !== null) return;
    fetchSignInMode().then(
      (mode) => setSignInMode(mode.signIn),
      () => setSignInMode(false),
    );
  }, [signInMode]);
  if (signInMode === null) {
    return (
      <div className="center-screen">
        <Spinner label={t('common.loading')} />
      </div>
    );
  }
  return signInMode ? <SignedInRoot /> : <TokenRoot initial={token} />;
}

function SignedInRoot() {
  const [session, setSession] = useState<EditorSession | null>(storedSession);
  const [reason, setReason] = useState<SignInReason>(null);
  const client = useMemo(
    () =>
      session
        ? createConsoleClient(session.token, (code) => {
            // A late answer to a session already replaced changes nothing.
            if (storedSession()?.token !== session.token) return;
            forgetSession();
            setReason(code === 'session-expired' ? 'expired' : 'ended');
            setSession(null);
          })
        : null,
    [session],
  );
  if (!session || !client) {
    return (
      <SignInPage
        reason={reason}
        onSignedIn={(signedIn) => {
          setReason(null);
          setSession(signedIn);
        }}
      />
    );
  }
  return (
    <App
      client={client}
      session={session}
      onSignOut={() => {
        // The form says "signed out" once the service has ended the session, not before: a
        // token copied from the tab a moment earlier must already be refused.
        void signOut(session).then(() => {
          setReason('signed-out');
          setSession(null);
        });
      }}
    />
  );
}

/**
 * The editor with the token of the service on this computer. The token is read from storage at
 * each call: when it is replaced (here or in another tab), every tab follows.
 */
function TokenRoot({ initial }: { initial: string | null }) {
  const { t } = useI18n();
  const [token, setToken] = useState(initial);
  const client = useMemo(
    () =>
      token
        ? createConsoleClient(
            () => storedConsoleToken() ?? token,
            (_code, refused) => {
              // A newer token was stored meanwhile: the next call uses it.
              const stored = storedConsoleToken();
              if (stored !== null && stored !== refused) return;
              forgetConsoleToken(refused);
              setToken(null);
            },
          )
        : null,
    [token],
  );
  if (!client) {
    return (
      <div className="center-screen">
        <EmptyState title={t('token.title')}>
          <p>{t('token.text')}</p>
          <pre className="code-block" data-testid="token-example">
            editor: {editorAddress()}?token=…
          </pre>
        </EmptyState>
      </div>
    );
  }
  return <App client={client} />;
}

const container = document.getElementById('root');
if (container) {
  createRoot(container).render(
    <StrictMode>
      <I18nProvider>
        <ToastProvider>
          <Root />
        </ToastProvider>
      </I18nProvider>
    </StrictMode>,
  );
}
