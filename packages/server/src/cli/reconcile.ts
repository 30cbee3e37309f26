import { readFile } from 'node:fs/promises';
import { InvalidArgumentError } from 'commander';
import { DAY } from '../platform/clock.ts';
import type { KeyMode } from '../platform/tenancy.ts';
import { parseStatement, type ReconcileQuery, type ReconciliationReport, type ReconciliationService } from '../modules/reconciliation/index.ts';

/**
 * `caisse reconcile`: reads the options, runs the reconciliation service, prints the report and
 * says the exit code: 0 every request agrees, 1 at least one mismatch, 2 nothing differs but
 * not everything could be checked (the provider could not be asked, or a usage error).
 */

export const RECONCILE_EXIT = { agreed: 0, mismatched: 1, unverified: 2 } as const satisfies Record<ReconciliationReport['result'], number>;

export interface ReconcileOptions {
  provider: string;
  /** YYYY-MM-DD, a UTC day: the period starts at its midnight. */
  from: string;
  /** YYYY-MM-DD, a UTC day, included: the period ends at the next midnight. */
  to: string;
  mode: KeyMode;
  statement?: string;
  json?: boolean;
}

/** "2026-11-01" → that UTC midnight; a day that does not exist (2026-02-30) is refused. */
export function utcDay(value: string, option: string): Date {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00.000Z`) : undefined;
  if (day === undefined || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value) {
    throw new InvalidArgumentError(`${option} expects a day as YYYY-MM-DD, got "${value}"`);
  }
  return day;
}

/** The service's query from the options: the period, and the statement file read and checked. */
export async function reconcileQuery(opts: ReconcileOptions): Promise<ReconcileQuery> {
  const from = utcDay(opts.from, '--from');
  const to = new Date(utcDay(opts.to, '--to').getTime() + DAY);
  if (from >= to) throw new InvalidArgumentError(`--from ${opts.from} is after --to ${opts.to}`);
  let statement;
  if (opts.statement !== undefined) {
    let text: string;
    try {
      text = await readFile(opts.statement, 'utf8');
    } catch (err) {
      throw new InvalidArgumentError(`cannot read the statement ${opts.statement}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    statement = parseStatement(text);
  }
  return { provider: opts.provider, mode: opts.mode, from, to, ...(statement !== undefined ? { statement } : {}) };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The human report: one line per mismatch, in-flight and unverified request, then a summary. */
export function formatReport(report: ReconciliationReport): string {
  const lines: string[] = [];
  for (const m of report.mismatches) lines.push(`MISMATCH ${m.kind} ${m.object} ${m.id ?? '-'} ${m.reference}: ${m.detail}`);
  for (const f of report.inFlight) {
    const theirs = f.provider.status === 'UNKNOWN' ? `not known (${f.provider.reason})` : f.provider.status;
    lines.push(`IN FLIGHT ${f.object} ${f.id} ${f.reference}: PENDING here, the provider ${theirs}`);
  }
  for (const u of report.unverified)
    lines.push(`UNVERIFIED ${u.object} ${u.id} ${u.reference}: we have ${u.ours.status}, the provider could not be asked (${u.reason})`);
  const lastDay = new Date(new Date(report.to).getTime() - 1).toISOString().slice(0, 10);
  const payouts = report.checked.payouts === null ? 'payouts not checked (no payouts source)' : plural(report.checked.payouts, 'payout');
  const direct = [
    report.checked.attempts === null ? '' : `, ${plural(report.checked.attempts, 'payment attempt')}`,
    report.checked.refunds === null ? '' : `, ${plural(report.checked.refunds, 'refund')}`,
  ].join('');
  lines.push(
    `${report.provider}, ${report.mode} mode, ${report.from.slice(0, 10)} to ${lastDay} (UTC): ${plural(report.checked.topups, 'top-up')}, ${payouts}${direct}; ` +
      `${report.agreed} agree, ${plural(report.mismatches.length, 'mismatch', 'mismatches')}, ${report.inFlight.length} in flight, ${report.unverified.length} unverified`,
  );
  const l = report.listing;
  if (l.source === 'none') lines.push(`requests unknown to us: not checked (${report.provider} cannot list its requests; pass --statement FILE)`);
  else if (!l.ok) lines.push(`requests unknown to us: not checked, the provider's listing failed (${l.reason})`);
  else
    lines.push(
      `requests unknown to us: checked against the ${l.source === 'statement' ? 'statement' : "provider's listing"} (${plural(l.requests, 'request')})`,
    );
  if (report.result === 'agreed') lines.push('all agree');
  else if (report.result === 'mismatched') lines.push(`${plural(report.mismatches.length, 'mismatch', 'mismatches')} found`);
  else lines.push('no mismatch found, but not everything could be checked');
  return `${lines.join('\n')}\n`;
}

/** Prints the report (JSON or human) and returns the exit code. */
export function printReport(report: ReconciliationReport, json: boolean, write: (text: string) => void): number {
  write(json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return RECONCILE_EXIT[report.result];
}

/** The whole command against a reconciliation service: what `caisse reconcile` runs once the database is open. */
export async function reconcileCommand(
  service: Pick<ReconciliationService, 'reconcile'>,
  opts: ReconcileOptions,
  write: (text: string) => void,
): Promise<number> {
  const report = await service.reconcile(await reconcileQuery(opts));
  return printReport(report, opts.json === true, write);
}
