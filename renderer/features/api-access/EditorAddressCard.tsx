/**
 * The editor's own address on this computer (its token kept by the service across restarts):
 * copied whole, shown with the token masked, and replaced on demand (after a confirmation), the
 * new token kept by this browser (api/token.ts). Not shown on a team server, whose editors sign in.
 * @module
 */
import { useState } from 'react';
import { editorAddressWith, storeConsoleToken, storedConsoleToken } from '../../api/token';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyButton } from '../../components/CopyButton';
import { useToasts } from '../../components/useToasts';
import { useI18n } from '../../i18n/useI18n';
import { useWorkspace } from '../../lib/workspace/useWorkspace';

export function EditorAddressCard() {
  const { t } = useI18n();
  const toasts = useToasts();
  const { client, workspace } = useWorkspace();
  const [token, setToken] = useState(storedConsoleToken);
  const [asking, setAsking] = useState(false);
  if (token === null || workspace.signedIn) return null;
  const masked = `${window.location.origin}/?token=${'•'.repeat(12)}`;

  const rotate = async () => {
    const { token: next } = await client.rotateEditorToken();
    storeConsoleToken(next);
    setToken(next);
    toasts.show(t('api.editorRotated'));
  };

  return (
    <section className="card" aria-labelledby="editor-address-title" data-testid="editor-address">
      <header className="card-header">
        <h2 id="editor-address-title">{t('api.editorTitle')}</h2>
      </header>
      <div className="editor-address">
        <p className="hint">{t('api.editorText')}</p>
        <p className="secret">
          <code className="secret-value" data-testid="editor-address-value">
            {masked}
          </code>
          <CopyButton text={editorAddressWith(token)} label={t('api.editorCopy')} />
          <button type="button" className="button button-small" onClick={() => setAsking(true)}>
            {t('api.editorRotate')}
          </button>
        </p>
      </div>
      {asking ? (
        <ConfirmDialog
          title={t('api.editorRotateTitle')}
          confirmLabel={t('api.editorRotate')}
          danger
          testId="editor-rotate-dialog"
          onConfirm={rotate}
          onClose={() => setAsking(false)}
        >
          <p>{t('api.editorRotateText')}</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
