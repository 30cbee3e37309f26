import { DAY } from '../../platform/clock.ts';
import { maskPhone } from '../../platform/codes.ts';
import { csvStream, textCell } from '../../platform/csv.ts';
import { ApiError } from '../../platform/errors.ts';
import { instantOf } from '../../platform/http/dashboard-api.ts';
import { type Caller, scopeOf } from '../../platform/tenancy.ts';
import type { ChargesService } from '../charges/index.ts';
import type { Intent, IntentsService } from '../intents/index.ts';
import type { UsersService } from '../users/index.ts';
import { intentIdAt, type PaymentsQuery } from './dashboard.payments.ts';

/** The payments export's columns: the list's, then what a bookkeeper reconciles with. */
export const PAYMENTS_CSV_COLUMNS = [
  'id',
  'created_at',
  'amount',
  'currency',
  'status',
  'description',
  'metadata',
  'fee',
  'net',
  'amount_refunded',
  'method',
  'provider',
  'connector',
  'payer',
  'provider_reference',
] as const;

type Attempt = { status: string; late?: boolean; provider: string; phoneNumber: string; providerReference: string | null; connector?: string };

/**
 * How an intent was paid (or, unpaid, last tried): its successful provider attempt, else the
 * wallet when it was paid or tried there, else its latest provider attempt.
 */
function paidHow(p: Intent): { method: string; attempt?: Attempt } {
  const attempts = Array.isArray(p.attempts) ? (p.attempts as Attempt[]) : [];
  const paidBy = attempts.find((a) => a.status === 'SUCCEEDED' && a.late !== true);
  if (paidBy) return { method: 'mobile_money', attempt: paidBy };
  const walletTries = typeof p.attempts === 'number' ? p.attempts : 0;
  if (p.fee !== null || walletTries > 0) return { method: 'wallet' };
  const latest = attempts.at(-1);
  return latest ? { method: 'mobile_money', attempt: latest } : { method: '' };
}

/** A day as the filter wrote it (its own date, in its own zone): `2026-11-01` of `2026-11-01T00:00:00+01:00`. */
const writtenDay = (value: string) => value.slice(0, 10);
/** The last day an exclusive end covers: the day before when it is that day's midnight. */
function lastDayBefore(value: string): string {
  const day = writtenDay(value);
  if (!/^\d{4}-\d{2}-\d{2}(T00:00(:00(\.0+)?)?(Z|[+-]\d{2}:\d{2})?)?$/i.test(value)) return day;
  return new Date(Date.parse(`${day}T00:00:00Z`) - DAY).toISOString().slice(0, 10);
}

/**
 * The export's file name, with the period it covers as the person chose it (the dates as the
 * filter wrote them, the end inclusive): `caisse-payments-test-2026-11-01_2026-11-28`; without a
 * start, `…-until-2026-11-28`; without an end, up to today (UTC).
 */
export function paymentsCsvName(mode: string, q: { createdGte?: string; createdLt?: string }, now: Date): string {
  const to = q.createdLt === undefined ? now.toISOString().slice(0, 10) : lastDayBefore(q.createdLt);
  return q.createdGte === undefined ? `caisse-payments-${mode}-until-${to}` : `caisse-payments-${mode}-${writtenDay(q.createdGte)}_${to}`;
}

/** The dashboard's downloads, streamed page by page. */
export function createDashboardExports(services: {
  intents: Pick<IntentsService, 'list'>;
  charges: Pick<ChargesService, 'walletPayersOf'>;
  users: Pick<UsersService, 'phoneNumbersOf'>;
}) {
  const { intents, charges, users } = services;

  /** The wallet payers' numbers of a page's intents, by intent id: two reads per page. */
  async function walletNumbers(scope: Caller, page: readonly Intent[]): Promise<Map<string, string>> {
    const payers = await charges.walletPayersOf(page.filter((p) => paidHow(p).method === 'wallet').map((p) => p.id));
    const phones = await users.phoneNumbersOf(scopeOf(scope), [...new Set(payers.values())]);
    const found = new Map<string, string>();
    for (const [intentId, userId] of payers) {
      const phone = phones.get(userId);
      if (phone !== undefined) found.set(intentId, phone);
    }
    return found;
  }

  return {
    /**
     * GET …/payments.csv: every payment the list's filters select, newest first as the list, as
     * RFC 4180 CSV: the list's columns, the metadata as JSON, then the fee, net and refunded
     * amount, how it was paid (method, provider, connector), the payer's number masked as the
     * dashboard shows it, and the provider's reference. Read a page of 100 at a time through the
     * intents module and stopped at `createdGte`, so a long period streams. The filters are
     * checked before the first byte (a bad one is a problem+json 400, not a cut file).
     */
    paymentsCsv(scope: Caller, q: Omit<PaymentsQuery, 'limit' | 'startingAfter'>): NodeJS.ReadableStream {
      const gte = instantOf(q.createdGte, 'createdGte');
      const lt = instantOf(q.createdLt, 'createdLt');
      if (gte && lt && gte >= lt) {
        throw new ApiError('validation_error', 'createdGte must be before createdLt', {
          param: 'createdGte',
          errors: [{ param: 'createdGte', message: 'not before createdLt' }],
        });
      }
      const floor = gte && intentIdAt(gte);
      return csvStream([...PAYMENTS_CSV_COLUMNS], async (write) => {
        let startingAfter = lt && intentIdAt(lt);
        for (;;) {
          const page = await intents.list(scope, { limit: 100, startingAfter, status: q.status });
          const wallet = await walletNumbers(scope, page.data);
          for (const p of page.data) {
            if (floor !== undefined && p.id < floor) return;
            const { method, attempt } = paidHow(p);
            const payer = attempt?.phoneNumber ?? (wallet.has(p.id) ? maskPhone(wallet.get(p.id) as string) : '');
            // A number starts with `+`, which a spreadsheet would read as a formula.
            await write([
              p.id,
              p.createdAt,
              p.amount,
              p.currency,
              p.status,
              textCell(p.description ?? ''),
              JSON.stringify(p.metadata),
              p.fee ?? '',
              p.net ?? '',
              p.amountRefunded,
              method,
              attempt?.provider ?? '',
              // Today every connector is its provider's; an attempt that names its own is taken as is.
              attempt?.connector ?? attempt?.provider ?? '',
              textCell(payer),
              textCell(attempt?.providerReference ?? ''),
            ]);
          }
          const last = page.data[page.data.length - 1];
          if (!page.hasMore || !last) return;
          startingAfter = last.id;
        }
      });
    },
  };
}
