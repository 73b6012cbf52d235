import type { ConsoleCustomer, ConsoleRobot } from '../../../electron/service/console-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import { Dialog } from '../../components/Dialog';
import { useI18n } from '../../i18n/useI18n';
import { missingRoles } from './column-mapping';
import { ImportMapping } from './ImportMapping';
import { ImportPick } from './ImportPick';
import { ImportReportView } from './ImportReportView';
import { failure } from './import-runner';
import { ImportRunning } from './ImportRunning';
import { failuresToSheet } from './sheet-layout';
import { downloadBlob, writeSpreadsheet } from '../../lib/sheets/sheet-worker-client';
import { downloadName } from '../../lib/files/download-names';
import { useImport } from './useImport';

export function ImportDialog({
  client,
  customer,
  robotRef,
  robot,
  onClose,
  onImported,
  onTemplate,
}: {
  client: ConsoleClient;
  customer: ConsoleCustomer;
  robotRef: RobotRef;
  robot: ConsoleRobot;
  onClose: () => void;
  onImported: () => void;
  onTemplate: () => void;
}) {
  const { t } = useI18n();
  const im = useImport(client, customer, robotRef, robot, onImported);
  const { stage } = im;
  const ready = im.rows.filter((row) => row.problem === null).length;

  const downloadFailed = async () => {
    if (stage.kind !== 'report') return;
    const { report, header } = stage;
    const failures = [
      ...report.failures,
      ...report.notSent.map((row) => failure(row, 'not-sent', null)),
    ].sort((a, b) => a.sheetRow - b.sheetRow);
    const blob = await writeSpreadsheet([failuresToSheet(t, header, failures)]);
    downloadBlob(blob, downloadName(t, 'failedRows', robot.name, 'xlsx'));
  };

  const running = stage.kind === 'running';
  const footer =
    stage.kind === 'map' ? (
      <>
        <button type="button" className="button" onClick={im.restart}>
          {t('import.otherFile')}
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={ready === 0 || missingRoles(stage.mapping).length > 0}
          onClick={() => void im.start()}
        >
          {t('import.start', { count: ready })}
        </button>
      </>
    ) : stage.kind === 'report' ? (
      <>
        <button type="button" className="button" onClick={im.restart}>
          {t('import.another')}
        </button>
        <button type="button" className="button button-primary" onClick={onClose}>
          {t('common.close')}
        </button>
      </>
    ) : null;

  return (
    <Dialog
      title={t('import.title', { robot: robot.name })}
      onClose={running ? im.pause : onClose}
      footer={footer}
      wide
      testId="import-dialog"
    >
      {stage.kind === 'pick' || stage.kind === 'parsing' ? (
        <ImportPick
          parsing={stage.kind === 'parsing' ? stage.fileName : null}
          error={stage.kind === 'pick' ? stage.error : null}
          onFile={(file) => void im.pickFile(file)}
          onTemplate={onTemplate}
        />
      ) : null}
      {stage.kind === 'map' ? (
        <ImportMapping
          fileName={stage.fileName}
          sheets={stage.sheets}
          sheetIndex={stage.sheetIndex}
          mapping={stage.mapping}
          rows={im.rows}
          batchSize={im.batchSize}
          onSheet={im.setSheet}
          onMapping={im.setMapping}
          onBatchSize={im.setBatchSize}
        />
      ) : null}
      {stage.kind === 'running' ? (
        <ImportRunning
          progress={stage.progress}
          paused={stage.paused}
          onPause={im.pause}
          onResume={im.resume}
          onCancel={im.cancel}
        />
      ) : null}
      {stage.kind === 'report' ? (
        <ImportReportView report={stage.report} onDownloadFailed={() => void downloadFailed()} />
      ) : null}
    </Dialog>
  );
}
