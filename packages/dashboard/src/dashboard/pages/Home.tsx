import { formatDate } from '@caisse/intl';
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { type MessageId, useI18n } from '../../shared/i18n.tsx';
import { useOverview } from '../queries/overview.ts';
import type { Mode, Overview, OverviewFigures, OverviewPeriod } from '../types.ts';
import { ErrorNotice, PageTitle } from '../ui.tsx';
import { HomeSummary } from './HomeSummary.tsx';

const PERIODS: { value: OverviewPeriod; label: MessageId }[] = [
  { value: 'today', label: 'home.period.today' },
  { value: '7d', label: 'home.period.7d' },
  { value: '30d', label: 'home.period.30d' },
];

type FigureKey = 'volume' | 'payments' | 'successRate' | 'newCustomers';
const FIGURES: { key: FigureKey; title: MessageId; help: MessageId }[] = [
  { key: 'volume', title: 'home.volume', help: 'home.volumeHelp' },
  { key: 'payments', title: 'home.payments', help: 'home.paymentsHelp' },
  { key: 'successRate', title: 'home.successRate', help: 'home.successRateHelp' },
  { key: 'newCustomers', title: 'home.newCustomers', help: 'home.newCustomersHelp' },
];

/** The plotted number of a figure (volume: the first currency, in major units; a chart only, the texts use money()). */
function plotted(f: OverviewFigures, key: FigureKey, currency: string | undefined): number | null {
  if (key === 'volume') return Number(f.volume.find((v) => v.currency === currency)?.amount ?? 0);
  if (key === 'successRate') return f.successRate === null ? null : f.successRate * 100;
  return f[key];
}

/** The Home page: the balance, what needs attention and the last payments, then the period's four figures against the previous period, each with its chart (uPlot) and its table. */
export function Home({ mode }: { mode: Mode }) {
  const { t } = useI18n();
  const [period, setPeriod] = useState<OverviewPeriod>('today');
  const overview = useOverview(mode, period);
  const data = overview.data?.period === period ? overview.data : undefined;
  return (
    <>
      <PageTitle title={t('home.title')}>{t('home.title')}</PageTitle>
      <HomeSummary mode={mode} />
      <h2 className="home-activity">{t('home.activity')}</h2>
      <p className="hint">{t('home.intro', { mode })}</p>
      <div className="segmented" role="group" aria-label={t('home.periodLabel')}>
        {PERIODS.map((p) => (
          <button key={p.value} type="button" aria-pressed={period === p.value} onClick={() => setPeriod(p.value)}>
            {t(p.label)}
          </button>
        ))}
      </div>
      <ErrorNotice error={overview.error} />
      {!data ? (
        overview.isPending && <p role="status">{t('home.loading')}</p>
      ) : (
        <div className="overview-grid">
          {FIGURES.map((f) => (
            <FigureCard key={f.key} figure={f} overview={data} />
          ))}
        </div>
      )}
    </>
  );
}

function FigureCard({ figure, overview }: { figure: (typeof FIGURES)[number]; overview: Overview }) {
  const { t, money, locale } = useI18n();
  const count = new Intl.NumberFormat(locale);
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  const shortDay = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const currency = overview.current.volume[0]?.currency ?? overview.previous.volume[0]?.currency;
  const text = (f: OverviewFigures): string => {
    if (figure.key === 'volume') return f.volume.length === 0 ? money('0', currency ?? 'XAF') : f.volume.map((v) => money(v.amount, v.currency)).join(' · ');
    if (figure.key === 'successRate') return f.successRate === null ? '—' : percent.format(f.successRate);
    return count.format(f[figure.key]);
  };
  const now = plotted(overview.current, figure.key, currency) ?? 0;
  const before = plotted(overview.previous, figure.key, currency) ?? 0;
  const change = before === 0 ? null : (now - before) / before;
  const title = t(figure.title);
  const when = (iso: string) => (overview.interval === 'hour' ? `${iso.slice(11, 16)} UTC` : formatDate(iso, locale, 'UTC'));
  return (
    <section className="card overview-card" aria-labelledby={`fig-${figure.key}`}>
      <h2 id={`fig-${figure.key}`}>{title}</h2>
      <p className="big-number" data-figure={figure.key}>
        {text(overview.current)}
      </p>
      <p className="hint">
        {t('home.previous', { value: text(overview.previous) })}
        {change !== null && <> · {t('home.change', { change: `${change >= 0 ? '+' : ''}${percent.format(change)}` })}</>}
      </p>
      <Chart
        label={t('home.chartLabel', { figure: title, total: text(overview.current), buckets: overview.series.length })}
        xs={overview.series.map((s) => Date.parse(s.start) / 1000)}
        ys={overview.series.map((s) => plotted(s, figure.key, currency))}
        bars={overview.interval === 'day'}
        max={figure.key === 'successRate' ? 100 : undefined}
        tick={(at) => (overview.interval === 'hour' ? at.toISOString().slice(11, 16) : shortDay.format(at))}
      />
      <details>
        <summary>{t('home.showTable', { figure: title })}</summary>
        <table>
          <caption className="visually-hidden">{t('home.tableCaption', { figure: title })}</caption>
          <thead>
            <tr>
              <th scope="col">{overview.interval === 'hour' ? t('home.hour') : t('home.day')}</th>
              <th scope="col" className="num">
                {title}
              </th>
            </tr>
          </thead>
          <tbody>
            {overview.series.map((s) => (
              <tr key={s.start}>
                <th scope="row">{when(s.start)}</th>
                <td className="num">{text(s)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      <p className="hint">{t(figure.help)}</p>
    </section>
  );
}

/** One series drawn by uPlot on a canvas; `label` is its text alternative (the table beside it has every figure). */
function Chart({
  label,
  xs,
  ys,
  bars,
  max,
  tick,
}: {
  label: string;
  xs: number[];
  ys: (number | null)[];
  bars: boolean;
  max?: number;
  tick: (at: Date) => string;
}) {
  const tickRef = useRef(tick);
  tickRef.current = tick;
  const box = useRef<HTMLDivElement>(null);
  const points = JSON.stringify([xs, ys]);
  useEffect(() => {
    const [x, y] = JSON.parse(points) as [number[], (number | null)[]];
    const el = box.current;
    if (!el) return;
    const plot = new uPlot(
      {
        width: Math.max(240, el.clientWidth),
        height: 120,
        legend: { show: false },
        cursor: { show: false },
        // Buckets are UTC hours and days: the axis says so, whatever the browser's zone.
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { y: { range: (_u, _min, top) => [0, max ?? (top > 0 ? top : 1)] } },
        // The x axis in the page's language, UTC (uPlot's own labels follow the browser's).
        axes: [
          { stroke: '#4b5563', values: (_u, splits) => splits.map((s) => tickRef.current(new Date(s * 1000))) },
          { stroke: '#4b5563', size: 60 },
        ],
        series: [
          {},
          { stroke: '#3730a3', fill: 'rgba(55, 48, 163, 0.15)', width: 2, paths: bars ? uPlot.paths.bars?.({ size: [0.6, 40] }) : undefined, spanGaps: false },
        ],
      },
      [x, y],
      el,
    );
    return () => plot.destroy();
  }, [points, bars, max]);
  return <div ref={box} className="overview-chart" role="img" aria-label={label} data-points={ys.length} />;
}
