/** Every headline figure of a run beside the same figure of a previous reference run. */
import { existsSync, readFileSync } from 'node:fs';

interface Figure {
  name: string;
  /** Where it is in the results JSON. */
  path: string;
  unit: string;
  better: 'higher' | 'lower';
}

const FIGURES: Figure[] = [
  { name: 'full flow, peak', path: 'phases.flow.peak.paymentsPerSecond', unit: 'payments/s', better: 'higher' },
  { name: 'full flow, server CPU per payment', path: 'phases.flow.peak.cpu.perUnitMs.server', unit: 'ms', better: 'lower' },
  { name: 'full flow, PostgreSQL CPU per payment', path: 'phases.flow.peak.cpu.perUnitMs.postgres', unit: 'ms', better: 'lower' },
  { name: 'full flow, load generator CPU per payment', path: 'phases.flow.peak.cpu.perUnitMs.loadGenerator', unit: 'ms', better: 'lower' },
  { name: 'API p50 at 70 % of the peak', path: 'phases.flow.at70.latency.all.p50', unit: 'ms', better: 'lower' },
  { name: 'API p99 at 70 % of the peak', path: 'phases.flow.at70.latency.all.p99', unit: 'ms', better: 'lower' },
  { name: 'statements per payment', path: 'phases.pgbench.statementsPerPayment', unit: '', better: 'lower' },
  { name: 'pgbench ceiling', path: 'phases.pgbench.ceiling', unit: 'payments/s', better: 'higher' },
  { name: 'full flow / ceiling', path: 'phases.ratioToCeiling', unit: '', better: 'higher' },
  { name: 'create intent alone', path: 'phases.create.requestsPerSecond', unit: 'requests/s', better: 'higher' },
  { name: 'Fastify hello world', path: 'phases.hello.requestsPerSecond', unit: 'requests/s', better: 'higher' },
  { name: 'webhook commit → receipt p50', path: 'phases.webhooks.latencyRun.latency.p50', unit: 'ms', better: 'lower' },
  { name: 'webhook commit → receipt p99', path: 'phases.webhooks.latencyRun.latency.p99', unit: 'ms', better: 'lower' },
  { name: 'webhook deliveries from a backlog', path: 'phases.webhooks.throughput.deliveriesPerSecond', unit: '/s', better: 'higher' },
  { name: 'latency ratio large/small table, create p50', path: 'phases.bigtable.ratios.createP50', unit: '', better: 'lower' },
  { name: 'latency ratio large/small table, charge p50', path: 'phases.bigtable.ratios.chargeP50', unit: '', better: 'lower' },
  { name: 'cluster (several API processes), peak', path: 'phases.cluster.peak.paymentsPerSecond', unit: 'payments/s', better: 'higher' },
  { name: 'PGlite full flow, peak', path: 'phases.pglite.peak.paymentsPerSecond', unit: 'payments/s', better: 'higher' },
  { name: 'PGlite, server CPU per payment', path: 'phases.pglite.peak.cpu.perUnitMs.server', unit: 'ms', better: 'lower' },
  ...['flow', 'create', 'webhooks', 'cluster', 'pglite'].map(
    (phase): Figure => ({ name: `peak RSS of a server process, ${phase}`, path: `memory.${phase}.peakProcessRssMb`, unit: 'MB', better: 'lower' }),
  ),
];

export interface Comparison {
  /** Which run the figures are compared with. */
  baseline: string;
  rows: { name: string; unit: string; before: number | null; now: number | null; better: 'higher' | 'lower' }[];
}

function at(obj: unknown, path: string): number | null {
  let v: unknown = obj;
  for (const part of path.split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** Reads the reference run at `file` (before this run overwrites it); undefined when there is none. */
export function readBaseline(file: string): { label: string; startedAt: string; json: unknown } | undefined {
  if (!existsSync(file)) return undefined;
  const json = JSON.parse(readFileSync(file, 'utf8')) as { label?: string; startedAt?: string };
  return { label: json.label ?? '?', startedAt: json.startedAt ?? '?', json };
}

export function compare(now: unknown, baseline: { label: string; startedAt: string; json: unknown }): Comparison {
  return {
    baseline: `${baseline.label} of ${baseline.startedAt}`,
    rows: FIGURES.map((f) => ({ name: f.name, unit: f.unit, before: at(baseline.json, f.path), now: at(now, f.path), better: f.better })).filter(
      (r) => r.before !== null || r.now !== null,
    ),
  };
}

/** The Markdown section: figure, before, now, and whether it moved the good way. */
export function comparisonSection(c: Comparison | undefined): string[] {
  if (!c) return [];
  const lines = [
    '## Beside the previous reference run',
    '',
    `Compared with ${c.baseline} (same machine class; read the load averages of both before a small difference).`,
    '',
    '| figure | before | now | change |',
    '|---|---|---|---|',
  ];
  for (const r of c.rows) {
    const unit = r.unit ? ` ${r.unit}` : '';
    let change = '';
    if (r.before !== null && r.now !== null && r.before !== 0) {
      const ratio = r.now / r.before;
      const good = r.better === 'higher' ? ratio >= 1 : ratio <= 1;
      change = `× ${Math.round(ratio * 100) / 100}${Math.abs(ratio - 1) < 0.05 ? '' : good ? ' (better)' : ' (worse)'}`;
    }
    lines.push(`| ${r.name} | ${r.before ?? '–'}${r.before !== null ? unit : ''} | ${r.now ?? '–'}${r.now !== null ? unit : ''} | ${change} |`);
  }
  lines.push('');
  return lines;
}
