import type { Logger } from 'pino';
import type { Executor, Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import type { Country } from '../../platform/countries.ts';
import type { BalancesService } from '../balances/index.ts';
import type { ConnectorSource } from '../connectors/index.ts';
import type { EventsService } from '../events/index.ts';
import type { RoutesService } from '../routes/index.ts';
import { createPayoutDestinations } from './payouts.destination.ts';
import { createPayoutRequests } from './payouts.requests.ts';
import { createPayoutReviews } from './payouts.review.ts';
import { createPayoutSchedules } from './payouts.schedule.ts';
import { createPayoutSending } from './payouts.sending.ts';

/**
 * Money out (docs/spec/money-out.md): payouts of a merchant's available balance to a mobile-money number.
 * The payout, its reference and the debit of `available` commit first; the provider is called
 * after, outside any transaction; PAID or FAILED (the money back) is decided once, under the
 * payout's row lock, whether a callback, a duplicate callback or the poller learnt it. A payout is
 * never sent twice: a retry sends the same reference, which the provider keys it by. Each use
 * case is its own file, built here once with what it uses.
 */
export function createPayoutsService(
  deps: Deps,
  collaborators: {
    balances: Pick<BalancesService, 'debitForPayout' | 'payoutPaid' | 'payoutFailed' | 'availableMinor'>;
    connectors: ConnectorSource;
    /** Which connector a payout to a method goes through (its payout route); absent: the method's own. */
    routes?: Pick<RoutesService, 'choose'> & Partial<Pick<RoutesService, 'read'>>;
    events: Pick<EventsService, 'record'>;
    /** The merchants' pinned API versions (the version their events are written in). */
    pinnedVersions: (ids: readonly string[], tx: Tx) => Promise<Map<string, string>>;
    /** Whether an operator froze the merchant: its schedule makes no payout meanwhile. */
    isFrozen?: (merchantId: string, tx: Tx) => Promise<boolean>;
    /** Whether the merchant is approved for live mode: no live payout, asked for or scheduled, without it. */
    isApproved: (merchantId: string, executor?: Executor) => Promise<boolean>;
    /** The merchant's country, which chooses the provider account (absent: the platform's accounts of the mode). */
    countryOf?: (merchantId: string, executor: Executor) => Promise<Country | undefined>;
    logger?: Logger;
  },
) {
  const destinations = createPayoutDestinations(collaborators);
  const sending = createPayoutSending(deps, collaborators, destinations.accountOf);
  const { lifecycle, pollDue, drain, listForProvider } = sending;
  return {
    ...createPayoutRequests(deps, collaborators, destinations, sending),

    /** The payouts' provider lifecycle: callbacks, the poller's rounds, shutdown's drain. */
    lifecycle,
    pollDue,

    ...createPayoutSchedules(deps, collaborators, destinations, sending),
    ...createPayoutReviews(deps, collaborators, destinations, sending),

    /** Waits for the provider calls requests started (shutdown). */
    drain,

    /** Every payout of a provider created in [from, to), for reconciliation. */
    listForProvider,
  };
}

export type PayoutsService = ReturnType<typeof createPayoutsService>;
