import { Dialog } from '../../components/Dialog';
import { useI18n } from '../../i18n/useI18n';
import { SHORTCUT_GROUPS } from './shortcuts';

export function HelpOverlay({ onClose }: { onClose: () => void }) {
  const { t } = useI18n();
  return (
    <Dialog title={t('help.title')} onClose={onClose} wide testId="help-overlay">
      <div className="help-grid">
        {SHORTCUT_GROUPS.map((group) => (
          <section key={group.title}>
            <h3>{t(group.title)}</h3>
            <table className="shortcut-table">
              <tbody>
                {group.shortcuts.map((shortcut) => (
                  <tr key={shortcut.description + shortcut.keys.join()}>
                    <td className="shortcut-keys">
                      {shortcut.keys.map((key, i) => (
                        <kbd key={i}>{key}</kbd>
                      ))}
                    </td>
                    <td>{t(shortcut.description)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ))}
      </div>
      <p className="hint">{t('help.macNote')}</p>
    </Dialog>
  );
}
