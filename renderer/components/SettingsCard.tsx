/**
 * One section of a settings page: a card whose heading names it (and labels it for assistive
 * technology), an optional aside in the header, and a body laid out as a column.
 * @module
 */
import type { ReactNode } from 'react';

export function SettingsCard({
  id,
  title,
  aside,
  testId,
  children,
}: {
  /** The heading's id (the section is labelled by it). */
  id: string;
  title: string;
  /** Shown beside the heading (a count, say). */
  aside?: ReactNode;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <section className="card settings-card" aria-labelledby={id} data-testid={testId}>
      <header className="card-header">
        <h2 id={id}>{title}</h2>
        {aside}
      </header>
      <div className="settings-body">{children}</div>
    </section>
  );
}
