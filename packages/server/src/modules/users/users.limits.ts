import type { Tx } from '../../platform/db.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { assertCurrency, type Currency, formatAmount, parseAmount } from '../../platform/money.ts';
import type { KeyMode } from '../../platform/tenancy.ts';
import { type CustomerLimitsRow, customerLimitsRepository as repo } from './users.limits.repository.ts';

/** The caps an operator sets (decision 0042), by their names in the API and in 403 `customer_limit_exceeded`. */
export const CUSTOMER_LIMITS = ['balance', 'topup_day', 'topup_month', 'payment'] as const;
export type CustomerLimitName = (typeof CUSTOMER_LIMITS)[number];
const COLUMNS = {
  balance: 'max_balance_minor',
  topup_day: 'max_topup_day_minor',
  topup_month: 'max_topup_month_minor',
  payment: 'max_payment_minor',
} as const satisfies Record<CustomerLimitName, keyof CustomerLimitsRow>;

/** Tier 0: a customer with a verified phone number, which every customer who pays or tops up is today. */
export const TIER_VERIFIED_PHONE = 0;

/** What a top-up would make of the customer's money, as the top-ups module counts it in its transaction. */
export interface TopUpUsage {
  mode: KeyMode;
  currency: Currency;
  amount: bigint;
  /** The wallet's balance now, plus top-ups still waiting for the provider. */
  balance: bigint;
  /** Top-ups succeeded or waiting since 00:00 UTC today, and since the 1st of the month. */
  today: bigint;
  thisMonth: bigint;
}

function limitsView(r: CustomerLimitsRow) {
  const currency = r.currency as Currency;
  const amount = (v: bigint | null) => (v === null ? null : formatAmount(v, currency));
  return {
    object: 'customer_limits' as const,
    livemode: r.mode === 'live',
    tier: r.tier,
    currency,
    limits: Object.fromEntries(CUSTOMER_LIMITS.map((name) => [name, amount(r[COLUMNS[name]])])) as Record<CustomerLimitName, string | null>,
    updatedBy: r.updated_by,
    updatedAt: r.updated_at.toISOString(),
  };
}
export type CustomerLimitsView = ReturnType<typeof limitsView>;

function exceeded(name: CustomerLimitName, cap: bigint, currency: Currency): ApiError {
  const value = formatAmount(cap, currency);
  return new ApiError('customer_limit_exceeded', `This exceeds the ${name} limit of ${value} ${currency} for the customer's account`, {
    extra: { limit: name, value, currency },
  });
}

/**
 * Customer limits (e-money rules, decision 0042): the caps of a mode, tier and currency, set by an
 * operator, and the checks the top-ups and charges modules call in their own transactions.
 */
export function createCustomerLimits(deps: Deps) {
  const { db, clock } = deps;
  const capsOf = (tx: Tx, mode: KeyMode, currency: string) => repo.find(tx, mode, TIER_VERIFIED_PHONE, currency);

  return {
    list: async () => (await repo.list(db)).map(limitsView),

    /** Sets a tier's caps in a currency (null: no cap); `within` runs in the transaction with before and after (the audit entry). */
    async set(
      actor: { operatorId: string },
      input: { mode: KeyMode; tier: number; currency: string; limits: Partial<Record<CustomerLimitName, string | null>> },
      within: (tx: Tx, before: unknown, after: unknown) => Promise<void>,
    ): Promise<CustomerLimitsView> {
      const currency = assertCurrency(input.currency);
      const caps: Record<string, bigint | null> = {};
      for (const name of CUSTOMER_LIMITS) {
        const v = input.limits[name];
        caps[COLUMNS[name]] = v === undefined || v === null ? null : parseAmount(v, currency, `limits.${name}`);
      }
      return db.transaction().execute(async (tx) => {
        const before = await repo.find(tx, input.mode, input.tier, currency);
        await repo.save(tx, {
          mode: input.mode,
          tier: input.tier,
          currency,
          max_balance_minor: caps.max_balance_minor ?? null,
          max_topup_day_minor: caps.max_topup_day_minor ?? null,
          max_topup_month_minor: caps.max_topup_month_minor ?? null,
          max_payment_minor: caps.max_payment_minor ?? null,
          updated_by: actor.operatorId,
          updated_at: clock.now(),
        });
        const after = limitsView((await repo.find(tx, input.mode, input.tier, currency)) as CustomerLimitsRow);
        await within(tx, before ? limitsView(before).limits : null, after.limits);
        return after;
      });
    },

    /** The caps a customer is held to in a mode and currency (undefined: none set). */
    async forCustomer(mode: KeyMode, currency: string) {
      const row = await repo.find(db, mode, TIER_VERIFIED_PHONE, currency);
      return row ? limitsView(row) : undefined;
    },

    /** 403 `customer_limit_exceeded` when a top-up would pass the balance, day or month cap. */
    async checkTopUp(tx: Tx, u: TopUpUsage): Promise<void> {
      const caps = await capsOf(tx, u.mode, u.currency);
      if (!caps) return;
      const checks: [CustomerLimitName, bigint][] = [
        ['balance', u.balance + u.amount],
        ['topup_day', u.today + u.amount],
        ['topup_month', u.thisMonth + u.amount],
      ];
      for (const [name, total] of checks) {
        const cap = caps[COLUMNS[name]];
        if (cap !== null && total > cap) throw exceeded(name, cap, u.currency);
      }
    },

    /** 403 `customer_limit_exceeded` when one payment is above the payment cap. */
    /** Sent ahead: issue it before the transaction's next statement, then await it with `allAhead`. */
    checkPayment(tx: Tx, u: { mode: KeyMode; currency: Currency; amount: bigint }): Promise<void> {
      return repo.paymentCapAhead(tx, u.mode, TIER_VERIFIED_PHONE, u.currency).then((cap) => {
        if (cap !== null && u.amount > cap) throw exceeded('payment', cap, u.currency);
      });
    },
  };
}

export type CustomerLimits = ReturnType<typeof createCustomerLimits>;
