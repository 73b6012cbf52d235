/**
 * The embedding-model part of the settings page being edited (mode, wire shape, address, model,
 * timeout, a new API key): saved with the rest of the page by its one save button
 * (docs/decisions.md). The key is never read back, only replaced.
 * @module
 */
import { useState } from 'react';
import type { ConsoleRobot } from '../../../electron/service/console-types';
import type { RobotRef } from '../../api/console-client';
import { useWorkspace } from '../../lib/workspace/useWorkspace';

export type EmbeddingMode = ConsoleRobot['settings']['embeddingMode'];
export type EmbeddingApi = ConsoleRobot['settings']['embeddingApi'];
export type EmbeddingForm = ReturnType<typeof useEmbeddingForm>;

export function useEmbeddingForm(robotRef: RobotRef, robot: ConsoleRobot) {
  const { client } = useWorkspace();
  const saved = robot.settings;
  const [mode, setMode] = useState<EmbeddingMode>(saved.embeddingMode);
  const [api, setApi] = useState<EmbeddingApi>(saved.embeddingApi);
  const [base, setBase] = useState(saved.embeddingBase);
  const [model, setModel] = useState(saved.embeddingModel);
  const [timeoutMs, setTimeoutMs] = useState(String(saved.embeddingTimeoutMs));
  const [key, setKey] = useState('');
  const differsFrom = (settings: ConsoleRobot['settings']) =>
    mode !== settings.embeddingMode ||
    api !== settings.embeddingApi ||
    base.trim() !== settings.embeddingBase ||
    model.trim() !== settings.embeddingModel ||
    Number(timeoutMs) !== settings.embeddingTimeoutMs;
  // The saved settings changed (a save elsewhere on the page): an unedited part follows them.
  const [from, setFrom] = useState(saved);
  if (from !== saved) {
    setFrom(saved);
    if (!differsFrom(from)) {
      setMode(saved.embeddingMode);
      setApi(saved.embeddingApi);
      setBase(saved.embeddingBase);
      setModel(saved.embeddingModel);
      setTimeoutMs(String(saved.embeddingTimeoutMs));
    }
  }
  const dirty = differsFrom(saved) || key !== '';
  return {
    mode,
    api,
    base,
    model,
    timeoutMs,
    key,
    dirty,
    setMode,
    setApi,
    setBase,
    setModel,
    setTimeoutMs,
    setKey,
    /** Sends the changes, then the new key if one was typed (throws the service's problem). */
    save: async () => {
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
    },
    discard: () => {
      setMode(saved.embeddingMode);
      setApi(saved.embeddingApi);
      setBase(saved.embeddingBase);
      setModel(saved.embeddingModel);
      setTimeoutMs(String(saved.embeddingTimeoutMs));
      setKey('');
    },
  };
}
