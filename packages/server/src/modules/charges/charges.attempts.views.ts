import { maskPhone } from '../../platform/codes.ts';
import { translator } from '../../platform/i18n.ts';
import { type Currency, formatAmount } from '../../platform/money.ts';
import { CARD_METHOD, describeMethod, describeProvider } from '../connectors/index.ts';
import { type DirectPayment, type DirectPayments, type IntentRow, type PaymentAttempt, publicView } from '../intents/index.ts';
import { type AttemptRow, attemptsRepository as repo } from './charges.attempts.repository.ts';
import type { ProcessingIntent } from './charges.schema.ts';

export function attemptView(row: AttemptRow): PaymentAttempt {
  const currency = row.currency as Currency;
  return {
    id: row.id,
    object: 'payment_attempt',
    provider: row.provider,
    connector: row.connector,
    providerAccount: row.provider_account,
    phoneNumber: maskPhone(row.phone_number),
    status: row.status,
    failureCode: row.failure_code,
    providerReference: row.provider_transaction_id,
    fee: row.fee_minor === null ? null : formatAmount(row.fee_minor, currency),
    net: row.fee_minor === null ? null : formatAmount(row.amount_minor - row.fee_minor, currency),
    late: row.late,
    createdAt: row.created_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
  };
}

/**
 * The provider's page as the payer opens it. In test mode it is always the sandbox's, which
 * reads the number the payer already typed from `msisdn` where the provider was not given it
 * (Orange's web payment takes none): the page shows it instead of asking again (issue 58).
 */
export function payerPage(url: string, attempt: Pick<AttemptRow, 'mode' | 'phone_number'>): string {
  if (attempt.mode !== 'test') return url;
  const page = new URL(url);
  if (page.searchParams.has('msisdn')) return url;
  page.searchParams.set('msisdn', attempt.phone_number);
  return page.toString();
}

/** What an intent shows of its direct payment: its attempts (oldest first), the latest's method, and what the payer does while it waits. */
export function directPaymentOf(attempts: readonly AttemptRow[]): DirectPayment | undefined {
  const current = attempts.at(-1);
  if (!current) return undefined;
  // The method's brand and USSD code, whichever connector reached it.
  const description = describeMethod(current.provider);
  // How the payer approves is the connector's way (an aggregator may send a redirect for a prompting operator).
  const approval = (describeProvider(current.connector) ?? describeProvider(current.provider))?.approval;
  const t = translator({ saved: current.language });
  return {
    attempts: attempts.map(attemptView),
    paymentMethod: {
      type: current.provider === CARD_METHOD ? 'card' : 'mobile_money',
      provider: current.provider,
      phoneNumber: maskPhone(current.phone_number),
    },
    // A redirect provider whose page is not known (its answer was lost) has nothing to show.
    nextAction:
      current.status !== 'PENDING' || (current.redirect_url === null && approval === 'redirect')
        ? null
        : current.redirect_url !== null
          ? { type: 'redirect', url: current.redirect_url }
          : {
              type: 'approve_on_phone',
              provider: current.provider,
              phoneNumber: current.phone_number,
              expiresAt: current.approval_expires_at.toISOString(),
              // A method whose USSD code differs by country (Moov Money) has none to dial.
              message: description?.ussd
                ? t.text('attempts.approveOnPhone', {
                    provider: description.displayName,
                    amount: t.amount(current.amount_minor, current.currency as Currency),
                    ussd: description.ussd,
                  })
                : t.text('attempts.approveOnPhoneNoUssd', {
                    provider: description?.displayName ?? current.provider,
                    amount: t.amount(current.amount_minor, current.currency as Currency),
                  }),
              ussd: description?.ussd ?? null,
            },
  };
}

/** The direct payments of these intents, in one query (the intents module's reads and events). */
export const directPayments: DirectPayments = async (executor, intentIds) => {
  const byIntent = new Map<string, AttemptRow[]>();
  for (const row of await repo.listForIntents(executor, intentIds)) byIntent.set(row.intent_id, [...(byIntent.get(row.intent_id) ?? []), row]);
  const found = new Map<string, DirectPayment>();
  for (const [id, rows] of byIntent) {
    const direct = directPaymentOf(rows);
    if (direct) found.set(id, direct);
  }
  return found;
};

/** The intent as a charge that started an attempt answers it: its public shape with its direct payment. */
export function intentView(row: IntentRow, attempts: AttemptRow[], now: Date): ProcessingIntent {
  const direct = directPaymentOf(attempts);
  return {
    ...publicView(row, now),
    attempts: direct?.attempts ?? [],
    paymentMethod: direct?.paymentMethod ?? null,
    nextAction: direct?.nextAction ?? null,
  };
}
