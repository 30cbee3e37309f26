import { DAY, HOUR } from '../../platform/clock.ts';
import type { Deps } from '../../platform/deps.ts';
import { type Currency, formatAmount } from '../../platform/money.ts';
import { type Caller, scopeOf } from '../../platform/tenancy.ts';
import type { ChargesService, HourFigures } from '../charges/index.ts';

/** The Home page's periods: today (hourly buckets) and the last 7 or 30 days including today (daily), in UTC. */
export const OVERVIEW_PERIODS = ['today', '7d', '30d'] as const;
export type OverviewPeriod = (typeof OVERVIEW_PERIODS)[number];
const PERIOD_DAYS: Record<OverviewPeriod, number> = { today: 1, '7d': 7, '30d': 30 };

interface Totals {
  volume: Map<string, bigint>;
  payments: number;
  attempts: number;
  newCustomers: number;
}

const emptyTotals = (): Totals => ({ volume: new Map(), payments: 0, attempts: 0, newCustomers: 0 });

function addHour(t: Totals, h: HourFigures): void {
  t.volume.set(h.currency, (t.volume.get(h.currency) ?? 0n) + h.volume);
  t.payments += h.succeeded;
  t.attempts += h.succeeded + h.failed;
  t.newCustomers += h.newCustomers;
}

/** Totals as the API answers them: amounts as decimal strings per currency, the success rate succeeded / attempts (null without attempts). */
function figuresView(t: Totals) {
  return {
    volume: [...t.volume]
      .filter(([, v]) => v > 0n)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([currency, v]) => ({ currency, amount: formatAmount(v, currency as Currency) })),
    payments: t.payments,
    attempts: t.attempts,
    successRate: t.attempts === 0 ? null : Math.round((t.payments / t.attempts) * 10_000) / 10_000,
    newCustomers: t.newCustomers,
  };
}

/** The Home page's figures, from the charges module's hourly rollup. */
export function createDashboardAnalytics(deps: Pick<Deps, 'clock'>, charges: Pick<ChargesService, 'hourFigures'>) {
  const { clock } = deps;
  return {
    /**
     * The Home page: volume, successful payments, success rate and new customers of the period
     * and of the one before it (as long, cut at the same point: today so far against yesterday
     * up to the same time), with a series per hour (today) or per UTC day. Success rate: the
     * share of charge attempts that succeeded (docs/decisions/0012-dashboard-overview.md).
     */
    async overview(scope: Caller, period: OverviewPeriod) {
      const now = clock.now();
      const days = PERIOD_DAYS[period];
      const length = days * DAY;
      const from = new Date(Math.floor(now.getTime() / DAY) * DAY - (days - 1) * DAY);
      const previousFrom = new Date(from.getTime() - length);
      const previousTo = new Date(now.getTime() - length);
      const bucketMs = period === 'today' ? HOUR : DAY;
      const [current, previous] = await Promise.all([
        charges.hourFigures(scopeOf(scope), from, now),
        charges.hourFigures(scopeOf(scope), previousFrom, previousTo),
      ]);
      const buckets = Array.from({ length: Math.floor((now.getTime() - from.getTime()) / bucketMs) + 1 }, emptyTotals);
      const totals = emptyTotals();
      for (const h of current) {
        addHour(totals, h);
        const bucket = buckets[Math.floor((h.hour * HOUR - from.getTime()) / bucketMs)];
        if (bucket) addHour(bucket, h);
      }
      const before = emptyTotals();
      for (const h of previous) addHour(before, h);
      return {
        object: 'dashboard_overview' as const,
        period,
        interval: period === 'today' ? ('hour' as const) : ('day' as const),
        from: from.toISOString(),
        to: now.toISOString(),
        previousFrom: previousFrom.toISOString(),
        previousTo: previousTo.toISOString(),
        current: figuresView(totals),
        previous: figuresView(before),
        series: buckets.map((b, i) => ({ start: new Date(from.getTime() + i * bucketMs).toISOString(), ...figuresView(b) })),
      };
    },
  };
}
