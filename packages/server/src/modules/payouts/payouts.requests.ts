import type { Country } from '../../platform/countries.ts';
import type { Executor } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import type { IdempotentAnswer } from '../../platform/http/idempotency.ts';
import { assertCurrency, parseAmount } from '../../platform/money.ts';
import { assertModeOpen, type Caller, type Scope } from '../../platform/tenancy.ts';
import { checkDescription, type createPayoutDestinations } from './payouts.destination.ts';
import { type PayoutRow, payoutsRepository as repo } from './payouts.repository.ts';
import type { CreatePayoutBody, Payout } from './payouts.schema.ts';
import { type createPayoutSending, payoutView } from './payouts.sending.ts';

/** A merchant's own payouts: asking for one (POST /payouts), reading one, listing them. */
export function createPayoutRequests(
  deps: Pick<Deps, 'db'>,
  collaborators: {
    /** Whether the merchant is approved for live mode: no live payout, asked for or scheduled, without it. */
    isApproved: (merchantId: string, executor?: Executor) => Promise<boolean>;
  },
  destinations: Pick<ReturnType<typeof createPayoutDestinations>, 'registryOf' | 'checkDestination'>,
  sending: Pick<ReturnType<typeof createPayoutSending>, 'prepare' | 'createInTx' | 'startIfPending'>,
) {
  const { db } = deps;
  const { registryOf, checkDestination } = destinations;
  const { prepare, createInTx, startIfPending } = sending;
  return {
    /**
     * POST /payouts: a PENDING payout whose money leaves `available` at once (409
     * `balance_insufficient` when it holds less), committed with its reference (and the
     * Idempotency-Key answer) before the provider is called. 202 whatever the provider does.
     */
    async create(merchant: Caller & { merchantCountry: Country }, body: CreatePayoutBody, answer?: IdempotentAnswer): Promise<Payout> {
      // Before the destination's checks: refused as not approved, not as a provider not configured.
      if (merchant.mode === 'live') assertModeOpen({ approved: await collaborators.isApproved(merchant.merchantId) }, merchant.mode);
      const currency = assertCurrency(body.currency);
      const amount = parseAmount(body.amount, currency);
      const scope = { merchantId: merchant.merchantId, mode: merchant.mode };
      const registry = await registryOf(scope, db, merchant.merchantCountry);
      const destination = checkDestination(merchant.mode, merchant.merchantCountry, body.destination, { currency, amount }, registry);
      checkDescription(body.destination.provider, body.description);
      await prepare(merchant.mode, body.destination.provider, destination.phoneNumber);
      const row = await db.transaction().execute(async (tx) => {
        const created = await createInTx(tx, scope, {
          amount,
          currency,
          provider: body.destination.provider,
          phoneNumber: destination.phoneNumber,
          description: body.description ?? null,
          method: 'manual',
        });
        await answer?.record(tx, 202, payoutView(created));
        return created;
      });
      startIfPending(row);
      return payoutView(row);
    },

    async retrieve(scope: Scope, id: string): Promise<Payout> {
      const row = await repo.find(db, scope, id);
      if (!row) throw new ApiError('not_found', `No payout ${id}`, { param: 'id' });
      return payoutView(row);
    },

    async list(scope: Scope, q: { limit?: number; startingAfter?: string; status?: PayoutRow['status'] }) {
      const limit = q.limit ?? 20;
      const rows = await repo.list(db, scope, { limit, startingAfter: q.startingAfter, status: q.status });
      return { object: 'list' as const, data: rows.slice(0, limit).map(payoutView), hasMore: rows.length > limit };
    },
  };
}
