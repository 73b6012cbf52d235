import {
  CategoryScale,
  Chart,
  Legend,
  LineController,
  LineElement,
  LinearScale,
  PointElement,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef, useState } from 'react';
import type { ThresholdCurves, ThresholdPoint } from '../../../electron/service/publishing-types';
import type { ConsoleClient, RobotRef } from '../../api/console-client';
import type { PublishingClient } from '../../api/publishing-client';
import { ErrorMessage } from '../../components/ErrorMessage';
import { describeError } from '../../i18n/describe-problem';
import { useI18n } from '../../i18n/useI18n';

Chart.register(
  LineController,
  LineElement,
  PointElement,
  LinearScale,
  CategoryScale,
  Legend,
  Tooltip,
);

type Setting = 'bestmatchThreshold' | 'recommendThreshold';

const SERIES: { key: 'answered' | 'right' | 'wrong' | 'recommended'; color: string }[] = [
  { key: 'answered', color: '#2563eb' },
  { key: 'right', color: '#16a34a' },
  { key: 'wrong', color: '#dc2626' },
  { key: 'recommended', color: '#d97706' },
];

function CurveChart({
  points,
  label,
  onPick,
}: {
  points: ThresholdPoint[];
  label: string;
  onPick: (threshold: number) => void;
}) {
  const { t } = useI18n();
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'line',
      data: {
        labels: points.map((p) => p.threshold.toFixed(2)),
        datasets: SERIES.map((s) => ({
          label: t(`thresholds.${s.key}`),
          data: points.map((p) => p[s.key]),
          borderColor: s.color,
          backgroundColor: s.color,
          pointRadius: 2,
          // Answered is dashed: where every answer is right, the right line shows through.
          borderDash: s.key === 'answered' ? [6, 4] : [],
        })),
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        // A click anywhere above a threshold picks it, not only on a point.
        interaction: { mode: 'index', intersect: false },
        scales: {
          x: { title: { display: true, text: label } },
          y: { beginAtZero: true, ticks: { precision: 0 } },
        },
        onClick: (_event, elements) => {
          const index = elements[0]?.index;
          const point = index === undefined ? undefined : points[index];
          if (point) onPick(point.threshold);
        },
      },
    });
    return () => chart.destroy();
  }, [points, label, onPick, t]);
  return (
    <div className="threshold-chart">
      <canvas ref={canvas} aria-label={label} role="img" />
    </div>
  );
}

/** Answered / right / wrong / recommended against each threshold; pick one and save it. */
export function ThresholdPanel({
  api,
  client,
  robotRef,
  onSaved,
}: {
  api: PublishingClient;
  client: ConsoleClient;
  robotRef: RobotRef;
  onSaved: () => void;
}) {
  const { t } = useI18n();
  const [curves, setCurves] = useState<ThresholdCurves | null>(null);
  const [picked, setPicked] = useState<{ setting: Setting; value: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    api.thresholds().then(setCurves, setError);
  }, [api]);
  const [pickBest] = useState(
    () => (value: number) => setPicked({ setting: 'bestmatchThreshold', value }),
  );
  const [pickRecommend] = useState(
    () => (value: number) => setPicked({ setting: 'recommendThreshold', value }),
  );
  const save = async () => {
    if (!picked) return;
    try {
      await client.patchRobot(robotRef, { settings: { [picked.setting]: picked.value } });
      setCurves(await api.thresholds());
      setPicked(null);
      onSaved();
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <section className="card" aria-label={t('thresholds.title')} data-testid="threshold-panel">
      <header className="card-header">
        <h2>{t('thresholds.title')}</h2>
        {curves ? (
          <span className="hint">
            {t('thresholds.current', {
              cases: curves.cases,
              bestmatch: curves.current.bestmatchThreshold,
              recommend: curves.current.recommendThreshold,
            })}
          </span>
        ) : null}
      </header>
      {error ? <ErrorMessage>{describeError(t, error)}</ErrorMessage> : null}
      {curves && curves.cases === 0 ? <p className="hint">{t('thresholds.noCases')}</p> : null}
      {curves ? (
        <div className="threshold-charts">
          <CurveChart
            points={curves.bestmatch}
            label={t('thresholds.bestmatch')}
            onPick={pickBest}
          />
          <CurveChart
            points={curves.recommend}
            label={t('thresholds.recommend')}
            onPick={pickRecommend}
          />
        </div>
      ) : null}
      <p className="hint">{t('thresholds.pickHint')}</p>
      {picked ? (
        <div className="toolbar-group">
          <span>
            {t('thresholds.picked', {
              setting: t(
                picked.setting === 'bestmatchThreshold'
                  ? 'thresholds.bestmatch'
                  : 'thresholds.recommend',
              ),
              value: picked.value,
            })}
          </span>
          <button type="button" className="button button-primary" onClick={() => void save()}>
            {t('thresholds.save')}
          </button>
        </div>
      ) : null}
    </section>
  );
}
