import { useI18n } from '../../i18n/useI18n';
import { SaveIndicator } from './SaveIndicator';

/** The robot's name and rule count, with the file actions and the try pane toggle. */
export function RulesHeader(props: {
  robotName: string;
  company: string;
  /** Rules matching the search and filters (null while loading). */
  total: number | null;
  /** Every rule of the robot, when a search or filter is on. */
  overall: number | null;
  tryOpen: boolean;
  exporting: boolean;
  onImport: () => void;
  onExport: () => void;
  onTemplate: () => void;
  onToggleTry: () => void;
  onSettings: () => void;
  onCategories: () => void;
  save: { saving: boolean; savedAt: number | null; unsaved: boolean };
}) {
  const { t } = useI18n();
  return (
    <header className="view-header">
      <h1>
        {props.robotName} <span className="view-header-meta">{props.company}</span>
      </h1>
      <span className="view-header-count" data-testid="rule-total">
        {props.total === null
          ? '…'
          : props.overall === null
            ? t('rules.count', { count: props.total })
            : t('rules.countFiltered', { shown: props.total, count: props.overall })}
      </span>
      <SaveIndicator {...props.save} />
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
        <button type="button" className="button" onClick={props.onCategories}>
          {t('categories.open')}
        </button>
        <button type="button" className="button" onClick={props.onSettings}>
          {t('robot.settings')}
        </button>
      </div>
    </header>
  );
}
