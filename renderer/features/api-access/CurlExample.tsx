import { useMemo, useState } from 'react';
import { CopyButton } from '../../components/CopyButton';
import { useI18n } from '../../i18n/useI18n';
import { useWorkspace } from '../../lib/workspace/useWorkspace';
import { askCurl, maskAdminKey } from './curl-example';

/** A signed curl command for ask, for a robot chosen here; signed again on demand. */
export function CurlExample() {
  const { t } = useI18n();
  const { workspace } = useWorkspace();
  const robots = workspace.tenants.flatMap((tenant) =>
    tenant.robots.map((robot) => ({ tenant, robot, id: `${tenant.tenantId}/${robot.robotId}` })),
  );
  const [chosen, setChosen] = useState(robots[0]?.id ?? '');
  const [question, setQuestion] = useState(t('api.exampleQuestion'));
  const [signedAt, setSignedAt] = useState(() => Date.now());
  const [revealed, setRevealed] = useState(false);
  const target = robots.find((r) => r.id === chosen) ?? robots[0];

  const command = useMemo(
    () =>
      target
        ? askCurl(
            workspace.baseUrl,
            workspace.customer,
            target.tenant.tenantId,
            target.robot.robotId,
            target.robot.robotSecret,
            question,
            signedAt,
          )
        : '',
    [target, workspace, question, signedAt],
  );

  if (!target) return null;
  return (
    <section className="card" aria-labelledby="curl-title">
      <header className="card-header">
        <h2 id="curl-title">{t('api.curlTitle')}</h2>
      </header>
      <div className="curl-options">
        <label className="inline-field">
          <span>{t('robot.name')}</span>
          <select value={target.id} onChange={(event) => setChosen(event.target.value)}>
            {robots.map((r) => (
              <option key={r.id} value={r.id}>
                {r.tenant.company} / {r.robot.name}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field grow">
          <span>{t('try.question')}</span>
          <input value={question} onChange={(event) => setQuestion(event.target.value)} />
        </label>
        <button type="button" className="button" onClick={() => setSignedAt(Date.now())}>
          {t('api.signAgain')}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => setRevealed(!revealed)}
          aria-pressed={revealed}
        >
          {revealed ? t('api.curlHideKey') : t('api.curlRevealKey')}
        </button>
        <CopyButton text={command} label={t('api.copyCurl')} />
      </div>
      <pre className="code-block" data-testid="curl-example">
        {revealed ? command : maskAdminKey(command)}
      </pre>
      <p className="hint">{t('api.curlHint')}</p>
    </section>
  );
}
