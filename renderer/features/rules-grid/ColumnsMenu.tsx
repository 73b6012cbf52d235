import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../../i18n/useI18n';
import type { MessageKey } from '../../i18n/types';
import type { ColumnLayout, MovableColumn } from './column-layout';

const LABELS: Record<MovableColumn, MessageKey> = {
  questions: 'rules.col.questions',
  answer: 'rules.col.answer',
  ruleCategoryId: 'rules.col.category',
  active: 'rules.col.status',
  effectBeignDate: 'field.effectiveFrom',
  effectEndDate: 'field.effectiveUntil',
  updatedAt: 'rules.col.updated',
  updatedBy: 'rules.col.changedBy',
  matchPolicy: 'rules.col.matching',
  hits: 'rules.col.hits',
  lastHit: 'rules.col.lastHit',
};

/** Which columns the grid shows; moving and resizing are done on the headers themselves. */
export function ColumnsMenu({
  layout,
  onHidden,
  onReset,
}: {
  layout: ColumnLayout;
  onHidden: (key: MovableColumn, hidden: boolean) => void;
  onReset: () => void;
}) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent && event.key !== 'Escape') return;
      if (event instanceof MouseEvent && root.current?.contains(event.target as Node)) return;
      setOpen(false);
    };
    window.addEventListener('mousedown', close);
    window.addEventListener('keydown', close);
    return () => {
      window.removeEventListener('mousedown', close);
      window.removeEventListener('keydown', close);
    };
  }, [open]);

  return (
    <div className="columns-menu" ref={root}>
      <button
        type="button"
        className={open ? 'button button-toggled' : 'button'}
        aria-expanded={open}
        aria-haspopup="true"
        onClick={() => setOpen(!open)}
      >
        {t('columns.open')} ▾
      </button>
      {open ? (
        <div className="columns-panel" role="group" aria-label={t('columns.title')}>
          <p className="columns-title">{t('columns.title')}</p>
          {layout.order.map((key) => (
            <label key={key} className="columns-option">
              <input
                type="checkbox"
                checked={!layout.hidden.includes(key)}
                onChange={(event) => onHidden(key, !event.target.checked)}
              />
              {t(LABELS[key])}
            </label>
          ))}
          <p className="hint">{t('columns.hint')}</p>
          <button type="button" className="button button-small" onClick={onReset}>
            {t('columns.reset')}
          </button>
        </div>
      ) : null}
    </div>
  );
}
