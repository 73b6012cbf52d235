import { useCallback, useMemo, useRef, useState } from 'react';
import type { ConsoleCustomer, ConsoleRobot } from '../../../electron/service/console-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import { sendBatch } from '../../api/openapi-client';
import { guessMapping } from './column-mapping';
import type { Mapping } from './column-mapping';
import { toImportRows } from './import-rows';
import { ImportControl, runImport } from './import-runner';
import type { ImportProgress, ImportReport } from './import-runner';
import type { PlainSheet } from '../../lib/sheets/sheet-messages';
import { parseSpreadsheet } from '../../lib/sheets/sheet-worker-client';

export type ImportStage =
  | { kind: 'pick'; error: FileError | null }
  | { kind: 'parsing'; fileName: string }
  | { kind: 'map'; fileName: string; sheets: PlainSheet[]; sheetIndex: number; mapping: Mapping }
  | { kind: 'running'; progress: ImportProgress; paused: boolean }
  | { kind: 'report'; report: ImportReport; header: string[] | null };

/** Why a file could not be used: nothing in it, or not a spreadsheet the editor reads. */
export interface FileError {
  reason: 'empty' | 'unreadable';
  fileName: string;
}

export const DEFAULT_BATCH_SIZE = 200;

/** The import dialog's steps: pick a file, map its columns, send it, read the report. */
export function useImport(
  client: ConsoleClient,
  customer: ConsoleCustomer,
  ref: RobotRef,
  robot: ConsoleRobot,
  onImported: () => void,
) {
  const [stage, setStage] = useState<ImportStage>({ kind: 'pick', error: null });
  const [batchSize, setBatchSize] = useState(DEFAULT_BATCH_SIZE);
  const control = useRef<ImportControl | null>(null);

  const pickFile = useCallback(async (file: File) => {
    setStage({ kind: 'parsing', fileName: file.name });
    let sheets: PlainSheet[];
    try {
      sheets = await parseSpreadsheet(file);
    } catch {
      setStage({ kind: 'pick', error: { reason: 'unreadable', fileName: file.name } });
      return;
    }
    const first = sheets.find((sheet) => sheet.rows.length > 0) ?? sheets[0];
    if (!first || first.rows.length === 0) {
      setStage({ kind: 'pick', error: { reason: 'empty', fileName: file.name } });
      return;
    }
    setStage({
      kind: 'map',
      fileName: file.name,
      sheets,
      sheetIndex: sheets.indexOf(first),
      mapping: guessMapping(first.rows),
    });
  }, []);

  const mapStage = stage.kind === 'map' ? stage : null;
  const sheetRows = mapStage?.sheets[mapStage.sheetIndex]?.rows;
  const rows = useMemo(
    () => (mapStage && sheetRows ? toImportRows(sheetRows, mapStage.mapping) : []),
    [mapStage, sheetRows],
  );

  const setMapping = (mapping: Mapping) => {
    if (mapStage) setStage({ ...mapStage, mapping });
  };

  const setSheet = (sheetIndex: number) => {
    const sheet = mapStage?.sheets[sheetIndex];
    if (mapStage && sheet) {
      setStage({ ...mapStage, sheetIndex, mapping: guessMapping(sheet.rows) });
    }
  };

  const start = async () => {
    if (!mapStage || !sheetRows) return;
    const header = mapStage.mapping.hasHeader ? (sheetRows[0] ?? null) : null;
    const importControl = new ImportControl();
    control.current = importControl;
    const initial: ImportProgress = {
      done: 0,
      total: 0,
      succeeded: 0,
      failed: 0,
      batch: 0,
      batches: 0,
    };
    setStage({ kind: 'running', progress: initial, paused: false });
    const report = await runImport(
      rows,
      batchSize,
      {
        sendBatch: (rules) =>
          sendBatch(customer, ref.tenantId, ref.robotId, robot.robotSecret, rules),
        patchRule: (ruleId, patch) => client.patchRule(ref, ruleId, patch),
        deactivate: (ruleIds) => client.setActive(ref, ruleIds, false),
        setCategory: (ruleIds, category) => client.setCategoryByName(ref, ruleIds, category),
      },
      importControl,
      (progress) => setStage({ kind: 'running', progress, paused: importControl.paused }),
    );
    control.current = null;
    setStage({ kind: 'report', report, header });
    onImported();
  };

  const pause = () => {
    control.current?.pause();
    setStage((s) => (s.kind === 'running' ? { ...s, paused: true } : s));
  };
  const resume = () => {
    control.current?.resume();
    setStage((s) => (s.kind === 'running' ? { ...s, paused: false } : s));
  };
  const cancel = () => control.current?.cancel();
  const restart = () => setStage({ kind: 'pick', error: null });

  return {
    stage,
    rows,
    batchSize,
    setBatchSize,
    pickFile,
    setMapping,
    setSheet,
    start,
    pause,
    resume,
    cancel,
    restart,
  };
}
