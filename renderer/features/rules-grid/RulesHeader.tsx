import { useI18n } from '../../i18n/useI18n';

/** The robot's name and rule count, with the file actions and the try pane toggle. */
export function RulesHeader(props: {
  robotName: string;
  company: string;
  total: number | null;
  tryOpen: boolean;
  exporting: boolean;
  onImport: () => void;
  onExport: () => void;
  onTemplate: () => void;
  onToggleTry: () => void;
}) {
  const { t, formatNumber } = useI18n();
  return (
    <header className="view-header">
      <h1>
        {props.robotName} <span className="view-header-meta">{props.company}</span>
      </h1>
      <span className="view-header-count" data-testid="rule-total">
        {props.total === null ? '…' : t('rules.count', { count: formatNumber(props.total) })}
      </span>
      <div className="toolbar-group toolbar-end">
        <button type="button" className="button" onClick={props.onImport} title="Alt+I">
          {t('import.open')}
        </button>
        <button
          type="button"
          className="button"
          onClick={props.onExport}
          disabled={props.exporting}
          title="Alt+E"
        >
          {props.exporting ? t('export.running') : t('export.open')}
        </button>
        <button type="button" className="button" onClick={props.onTemplate}>
          {t('export.template')}
        </button>
        <button
          type="button"
          className={props.tryOpen ? 'button button-toggled' : 'button'}
          aria-pressed={props.tryOpen}
          onClick={props.onToggleTry}
          title="Alt+T"
        >
          {t('try.open')}
        </button>
      </div>
    </header>
  );
}
