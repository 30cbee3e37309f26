import { readFile } from 'node:fs/promises';
import { InvalidArgumentError } from 'commander';
import { DAY } from '../platform/clock.ts';
import type { KeyMode } from '../platform/tenancy.ts';
import {
  type AccountReconciliation,
  parseStatement,
  type ReconcileQuery,
  type ReconciliationReport,
  type ReconciliationService,
} from '../modules/reconciliation/index.ts';

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

/** What was checked, as words: "6 top-ups, 3 payouts, …; 5 agree, 0 mismatches, 1 in flight, 0 unverified". */
function counts(part: Pick<ReconciliationReport, 'checked' | 'agreed' | 'mismatches' | 'inFlight' | 'unverified'>): string {
  const payouts = part.checked.payouts === null ? 'payouts not checked (no payouts source)' : plural(part.checked.payouts, 'payout');
  const direct = [
    part.checked.attempts === null ? '' : `, ${plural(part.checked.attempts, 'payment attempt')}`,
    part.checked.refunds === null ? '' : `, ${plural(part.checked.refunds, 'refund')}`,
  ].join('');
  return (
    `${plural(part.checked.topups, 'top-up')}, ${payouts}${direct}; ` +
    `${part.agreed} agree, ${plural(part.mismatches.length, 'mismatch', 'mismatches')}, ${part.inFlight.length} in flight, ${part.unverified.length} unverified`
  );
}

/** Whether the provider's listing was read with an account, as a line. */
function listingLine(report: ReconciliationReport, account: AccountReconciliation): string {
  const l = account.listing;
  if (l === null) return `  requests unknown to us: listed with the account this server calls ${account.connector} with`;
  if (l.source === 'none') return `  requests unknown to us: not checked (${report.provider} cannot list its requests; pass --statement FILE)`;
  if (!l.ok) return `  requests unknown to us: not checked, the provider's listing failed (${l.reason})`;
  return `  requests unknown to us: checked against the ${l.source === 'statement' ? 'statement' : "provider's listing"} (${plural(l.requests, 'request')})`;
}

/**
 * The human report, per provider account (its connector named): one line per mismatch,
 * in-flight and unverified request, the account's counts and listing; then a summary.
 */
export function formatReport(report: ReconciliationReport): string {
  const lines: string[] = [];
  for (const account of report.accounts) {
    const how = account.readHere ? '' : ', not read here';
    lines.push(`provider account ${account.providerAccount} (connector ${account.connector}${how}): ${counts(account)}`);
    for (const m of account.mismatches) lines.push(`MISMATCH ${m.kind} ${m.object} ${m.id ?? '-'} ${m.reference}: ${m.detail}`);
    for (const f of account.inFlight) {
      const theirs = f.provider.status === 'UNKNOWN' ? `not known (${f.provider.reason})` : f.provider.status;
      lines.push(`IN FLIGHT ${f.object} ${f.id} ${f.reference}: PENDING here, the provider ${theirs}`);
    }
    for (const u of account.unverified)
      lines.push(`UNVERIFIED ${u.object} ${u.id} ${u.reference}: we have ${u.ours.status}, the provider could not be asked (${u.reason})`);
    lines.push(listingLine(report, account));
  }
  const lastDay = new Date(new Date(report.to).getTime() - 1).toISOString().slice(0, 10);
  lines.push(`${report.provider}, ${report.mode} mode, ${report.from.slice(0, 10)} to ${lastDay} (UTC): ${counts(report)}`);
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
