/**
 * The robot's embedding model (docs/matching.md, "Fusion with an embedding model"): the service's
 * default, none, or its own provider (wire shape, address, model, API key, timeout), a connection
 * test (the model's dimension and latency), and the model at work (vectors made, failures,
 * calibration). Saved with the rest of the page (useSettingsPage.ts); the key is never shown,
 * only whether one is set.
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
import { SettingsCard } from '../../components/SettingsCard';
import { describeProblem } from '../../i18n/describe-problem';
import { problemOfError } from '../../i18n/server-problem';
import { useI18n } from '../../i18n/useI18n';
import { useWorkspace } from '../../lib/workspace/useWorkspace';
import type { EmbeddingApi, EmbeddingForm, EmbeddingMode } from './embedding-form';

export function EmbeddingCard({
  form,
  robotRef,
  robot,
  error: saveError,
}: {
  form: EmbeddingForm;
  robotRef: RobotRef;
  robot: ConsoleRobot;
  /** The service's problem with the last save of this part. */
  error: string | null;
}) {
  const { t } = useI18n();
  const { client, reload } = useWorkspace();
  const { mode, api, base, model, timeoutMs, key } = form;
  const [ownError, setError] = useState<string | null>(null);
  const error = ownError ?? saveError;
  const [tested, setTested] = useState<EmbeddingTest | null>(null);
  const [testing, setTesting] = useState(false);
  const [status, setStatus] = useState<EmbeddingStatus | null>(null);

  const { tenantId, robotId } = robotRef;
  const refresh = useCallback(() => {
    client.embeddingStatus({ tenantId, robotId }).then(setStatus, () => setStatus(null));
  }, [client, tenantId, robotId]);
  // Again after each save (the robot's settings change): the status follows the model saved.
  useEffect(refresh, [refresh, robot.settings]);

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
    <SettingsCard id="settings-embedding" title={t('embedding.title')} testId="embedding-card">
      <p className="muted">{t('embedding.intro')}</p>
      {error ? <ErrorMessage>{error}</ErrorMessage> : null}
      <label className="conv-field">
        <span>{t('embedding.mode')}</span>
        <select
          value={mode}
          onChange={(event) => form.setMode(event.target.value as EmbeddingMode)}
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
              onChange={(event) => form.setApi(event.target.value as EmbeddingApi)}
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
              onChange={(event) => form.setBase(event.target.value)}
              data-testid="embedding-base"
            />
          </label>
          <label className="conv-field">
            <span>{t('embedding.model')}</span>
            <input
              value={model}
              placeholder="bge-m3"
              onChange={(event) => form.setModel(event.target.value)}
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
              onChange={(event) => form.setKey(event.target.value)}
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
            onChange={(event) => form.setTimeoutMs(event.target.value)}
            data-testid="embedding-timeout"
          />
        </label>
      ) : null}
      {mode === 'custom' ? (
        <div className="embedding-actions">
          <button
            type="button"
            className="button"
            disabled={testing || base.trim() === '' || model.trim() === ''}
            onClick={() => void test()}
            data-testid="embedding-test"
          >
            {t('embedding.test')}
          </button>
        </div>
      ) : null}
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
    </SettingsCard>
  );
}
