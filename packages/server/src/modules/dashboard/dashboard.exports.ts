import { csvStream, textCell } from '../../platform/csv.ts';
import { ApiError } from '../../platform/errors.ts';
import { instantOf } from '../../platform/http/dashboard-api.ts';
import type { Caller } from '../../platform/tenancy.ts';
import type { IntentsService } from '../intents/index.ts';
import { intentIdAt, type PaymentsQuery } from './dashboard.payments.ts';

/** The dashboard's downloads, streamed page by page. */
export function createDashboardExports(services: { intents: Pick<IntentsService, 'list'> }) {
  const { intents } = services;
  return {
    /**
     * GET …/payments.csv: every payment the list's filters select, newest first as the list, as
     * RFC 4180 CSV: the list's columns plus the metadata as JSON, then the connector and provider
     * account of the latest direct mobile-money attempt (decision 0066). Read a page of 100 at a time
     * through the intents module and stopped at `createdGte`, so a long period streams. The
     * filters are checked before the first byte (a bad one is a problem+json 400, not a cut file).
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
      const columns = ['id', 'created_at', 'amount', 'currency', 'status', 'description', 'metadata', 'connector', 'provider_account'];
      return csvStream(columns, async (write) => {
        let startingAfter = lt && intentIdAt(lt);
        for (;;) {
          const page = await intents.list(scope, { limit: 100, startingAfter, status: q.status });
          for (const p of page.data) {
            if (floor !== undefined && p.id < floor) return;
            // The direct payment's latest attempt (the one that paid, if any): how the money came in.
            const attempt = Array.isArray(p.attempts) ? p.attempts.at(-1) : undefined;
            await write([
              p.id,
              p.createdAt,
              p.amount,
              p.currency,
              p.status,
              textCell(p.description ?? ''),
              JSON.stringify(p.metadata),
              attempt?.connector ?? '',
              attempt?.providerAccount ?? '',
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
