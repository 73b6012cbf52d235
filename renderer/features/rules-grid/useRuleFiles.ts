import { useState } from 'react';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import { useToasts } from '../../components/useToasts';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';
import { exportRules } from '../excel-import/export-rules';
import { downloadName } from '../../lib/files/download-names';
import { templateSheet } from '../excel-import/sheet-layout';
import { downloadBlob, writeSpreadsheet } from '../../lib/sheets/sheet-worker-client';

/** Export of the robot's rules and download of the import template. */
export function useRuleFiles(client: ConsoleClient, ref: RobotRef, robotName: string) {
  const { t } = useI18n();
  const toasts = useToasts();
  const [exporting, setExporting] = useState(false);

  const exportAll = async () => {
    if (exporting) return;
    setExporting(true);
    try {
      downloadBlob(await exportRules(client, ref, t), downloadName(t, 'rules', robotName, 'xlsx'));
    } catch (error) {
      toasts.show(describeError(t, error), { tone: 'error' });
    } finally {
      setExporting(false);
    }
  };

  const downloadTemplate = async () => {
    try {
      downloadBlob(await writeSpreadsheet([templateSheet(t)]), t('sheet.templateFile'));
    } catch (error) {
      toasts.show(describeError(t, error), { tone: 'error' });
    }
  };

  return { exporting, exportAll, downloadTemplate };
}
