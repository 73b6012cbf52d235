import { StrictMode, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import 'react-data-grid/lib/styles.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/grid.css';
import './styles/dialogs.css';
import './styles/settings.css';
import './styles/question-log.css';
import './styles/publishing.css';
import { DEFAULT_API_PORT } from '../electron/service/defaults';
import { createConsoleClient } from './api/console-client';
import { forgetConsoleToken, takeConsoleToken } from './api/token';
import { App } from './App';
import { EmptyState } from './components/EmptyState';
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

function Root() {
  const { t } = useI18n();
  const [token, setToken] = useState(takeConsoleToken);
  const client = useMemo(
    () =>
      token
        ? createConsoleClient(token, () => {
            forgetConsoleToken();
            setToken(null);
          })
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
