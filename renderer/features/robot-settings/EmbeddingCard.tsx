/**
 * The robot's embedding model (docs/matching.md, "Fusion with an embedding model"): the service's
 * default, none, or its own provider (wire shape, address, model, API key, timeout), a connection
 * test (the model's dimension and latency), and the model at work (vectors made, failures,
 * calibration). Saved on its own (the card's button), apart from the settings form; the key is
 * never shown, only whether one is set.
 * @module
 */
import { useCallback, useEffect, useState } from 'react';
import type {
  ConsoleRobot,
  EmbeddingStatus,
  EmbeddingTest,
} from '../../../electron/service/console-types';
import type { RobotRef } from '../../api/console-client';
import { ErrorMessage } from '../../components/ErrorMessage';
import { useToasts } from '../../components/useToasts';
import { describeProblem } from '../../i18n/describe-problem';
import { problemOfError } from '../../i18n/server-problem';
import { useI18n } from '../../i18n/useI18n';
import { useWorkspace } from '../../lib/workspace/useWorkspace';

type Mode = ConsoleRobot['settings']['embeddingMode'];
type Api = ConsoleRobot['settings']['embeddingApi'];

export function EmbeddingCard({ robotRef, robot }: { robotRef: RobotRef; robot: ConsoleRobot }) {
  const { t } = useI18n();
  const toasts = useToasts();
  const { client, reload } = useWorkspace();
  const saved = robot.settings;
  const [mode, setMode] = useState<Mode>(saved.embeddingMode);
  const [api, setApi] = useState<Api>(saved.embeddingApi);
  const [base, setBase] = useState(saved.embeddingBase);
  const [model, setModel] = useState(saved.embeddingModel);
  const [timeoutMs, setTimeoutMs] = useState(String(saved.embeddingTimeoutMs));
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [tested, setTested] = useState<EmbeddingTest | null>(null);
  const [testing, setTesting] = useState(false);
  const [status, setStatus] = useState<EmbeddingStatus | null>(null);

  const { tenantId, robotId } = robotRef;
  const refresh = useCallback(() => {
    client.embeddingStatus({ tenantId, robotId }).then(setStatus, () => setStatus(null));
  }, [client, tenantId, robotId]);
  useEffect(refresh, [refresh]);

  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      await client.patchRobot(robotRef, {
        settings: {
          embeddingMode: mode,
          embeddingApi: api,
          embeddingBase: base.trim(),
          embeddingModel: model.trim(),
          embeddingTimeoutMs: Number(timeoutMs),
        },
      });
      if (key !== '') await client.setEmbeddingKey(robotRef, key);
      setKey('');
      toasts.show(t('embedding.saved'));
      void reload();
      refresh();
    } catch (caught) {
      setError(describeProblem(t, problemOfError(caught)));
    } finally {
      setSaving(false);
    }
  };

  const removeKey = async () => {
    try {
      await client.setEmbeddingKey(robotRef, null);
      void reload();
    } catch (caught) {
      setError(describeProblem(t, problemOfError(caught)));
    }
  };

  const test = async () => {
    setTesting(true);
    setTested(null);
    try {
      setTested(
        await client.testEmbedding(robotRef, {
          api,
          base: base.trim(),
          model: model.trim(),
          ...(key !== '' ? { apiKey: key } : {}),
        }),
      );
    } catch (caught) {
      setError(describeProblem(t, problemOfError(caught)));
    } finally {
      setTesting(false);
    }
  };

  return (
    <section
      className="card settings-card"
      aria-labelledby="settings-embedding"
      data-testid="embedding-card"
    >
      <header className="card-header">
        <h2 id="settings-embedding">{t('embedding.title')}</h2>
      </header>
      <div className="settings-body">
        <p className="muted">{t('embedding.intro')}</p>
        {error ? <ErrorMessage>{error}</ErrorMessage> : null}
        <label className="conv-field">
          <span>{t('embedding.mode')}</span>
          <select
            value={mode}
            onChange={(event) => setMode(event.target.value as Mode)}
            data-testid="embedding-mode"
          >
            {(['default', 'off', 'custom'] as const).map((m) => (
              <option key={m} value={m}>
                {t(`embedding.mode.${m}`)}
              </option>
            ))}
          </select>
        </label>
        {mode === 'custom' ? (
          <>
            <label className="conv-field">
              <span>{t('embedding.api')}</span>
              <select
                value={api}
                onChange={(event) => setApi(event.target.value as Api)}
                data-testid="embedding-api"
              >
                <option value="openai">{t('embedding.api.openai')}</option>
                <option value="ollama">{t('embedding.api.ollama')}</option>
              </select>
            </label>
            <label className="conv-field">
              <span>{t('embedding.base')}</span>
              <input
                value={base}
                placeholder={
                  api === 'ollama' ? 'http://127.0.0.1:11434' : 'http://127.0.0.1:11434/v1'
                }
                onChange={(event) => setBase(event.target.value)}
                data-testid="embedding-base"
              />
            </label>
            <label className="conv-field">
              <span>{t('embedding.model')}</span>
              <input
                value={model}
                placeholder="bge-m3"
                onChange={(event) => setModel(event.target.value)}
                data-testid="embedding-model"
              />
            </label>
            <label className="conv-field">
              <span>{t('embedding.key')}</span>
              <input
                type="password"
                autoComplete="off"
                value={key}
                placeholder={robot.embeddingKeySet ? t('embedding.keySet') : t('embedding.keyNone')}
                onChange={(event) => setKey(event.target.value)}
                data-testid="embedding-key"
              />
            </label>
            {robot.embeddingKeySet ? (
              <div>
                <button type="button" className="button" onClick={() => void removeKey()}>
                  {t('embedding.keyRemove')}
                </button>
              </div>
            ) : null}
          </>
        ) : null}
        {mode !== 'off' ? (
          <label className="conv-field">
            <span>{t('embedding.timeout')}</span>
            <input
              type="number"
              min={50}
              max={10000}
              value={timeoutMs}
              onChange={(event) => setTimeoutMs(event.target.value)}
              data-testid="embedding-timeout"
            />
          </label>
        ) : null}
        <div className="embedding-actions">
          {mode === 'custom' ? (
            <button
              type="button"
              className="button"
              disabled={testing || base.trim() === '' || model.trim() === ''}
              onClick={() => void test()}
              data-testid="embedding-test"
            >
              {t('embedding.test')}
            </button>
          ) : null}{' '}
          <button
            type="button"
            className="button button-primary"
            disabled={saving}
            onClick={() => void save()}
            data-testid="embedding-save"
          >
            {t('embedding.save')}
          </button>
        </div>
        {tested ? (
          <p role="status" data-testid="embedding-tested">
            {tested.ok
              ? t('embedding.testOk', { dimensions: tested.dimensions, ms: tested.latencyMs })
              : t('embedding.testFailed', { message: tested.message })}
          </p>
        ) : null}
        {status ? (
          <p className="muted" data-testid="embedding-status">
            {t('embedding.status', {
              model: status.model,
              embedded: status.embedded,
              texts: status.texts,
              dimensions: status.dimensions,
              failures:
                status.failures.timeout +
                status.failures.http +
                status.failures.network +
                status.failures.shape +
                status.failures.dimension,
            })}{' '}
            {status.calibration
              ? t(status.calibration.active ? 'embedding.fused' : 'embedding.unweighted')
              : t('embedding.calibrating')}
          </p>
        ) : null}
      </div>
    </section>
  );
}
