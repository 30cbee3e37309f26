import { CaisseError, type MobileMoneyMethod, type OtpChannel, type Topup } from '@caisse/browser';
import { useCallback, useRef } from 'react';
import type { Checkout, CheckoutRuntime } from './checkoutController.ts';
import {
  atLeast,
  type CheckoutError,
  type CheckoutStatus,
  type CheckoutTopUp,
  normalizePhone,
  shortfall,
  suggestProvider,
  type TopUpProvider,
} from './checkoutMachine.ts';
import { customerError } from './i18n.tsx';

/** How often a pending top-up is read again, and how long the checkout waits for the payer's approval. */
export const TOPUP_POLL_INTERVAL_MS = 1000;
export const TOPUP_WAIT_MS = 2 * 60_000;

/** The providers a wallet top-up can ask: mobile money approved on the phone, available now. */
export function topUpProviders(methods: readonly { type: string }[]): TopUpProvider[] {
  return methods
    .filter((m): m is MobileMoneyMethod => m.type === 'mobile_money')
    .filter((m) => m.available && m.approval === 'phone_prompt')
    .map((m) => ({ provider: m.provider, name: m.name, prefixes: m.prefixes, minAmount: m.minAmount }));
}

/**
 * The wallet's top-up, the offer half: reads the wallet and, when it holds less than the intent,
 * offers the top-up of what is missing. `forgetProviders` drops the providers read (a new intent).
 */
export function useTopUpOffer({ client, clientSecret, current, send }: Pick<CheckoutRuntime, 'client' | 'clientSecret' | 'current' | 'send'>) {
  // The providers a top-up may ask, read once.
  const providers = useRef<Promise<TopUpProvider[]> | undefined>(undefined);
  /** The providers a top-up may ask (`GET /payment-methods`), read once; none when it cannot be read. */
  const readProviders = useCallback(() => {
    providers.current ??= client.getPaymentMethods(clientSecret).then(topUpProviders, () => {
      providers.current = undefined;
      return [];
    });
    return providers.current;
  }, [client, clientSecret]);

  /**
   * Reads the wallet: when it holds less than the intent and a provider can top it up, offers the
   * top-up of what is missing (`topup-offer`) and answers 'short'; 'enough' otherwise, 'unknown'
   * when the wallet could not be read or nothing can top it up (the charge would then say
   * `insufficient_funds`).
   */
  const offerTopUp = useCallback(
    async (gen: number, error?: CheckoutError): Promise<'short' | 'enough' | 'unknown'> => {
      const { intent, user } = current.current;
      if (intent === undefined || user === undefined) return 'unknown';
      let missing: string | undefined;
      try {
        const wallet = await client.wallet();
        missing = shortfall(intent.amount, wallet.balances.find((b) => b.currency === intent.currency)?.amount ?? '0');
      } catch {
        return 'unknown';
      }
      if (missing === undefined) return 'enough';
      const choices = await readProviders();
      if (choices.length === 0) return 'unknown';
      const before = current.current.topUp;
      const phoneNumber = before?.phoneNumber ?? user.phoneNumber;
      const kept = before && choices.some((p) => p.provider === before.provider) ? before.provider : undefined;
      const provider = kept ?? suggestProvider(phoneNumber, choices) ?? (choices[0] as TopUpProvider).provider;
      // The provider refuses less than its minimum: a smaller shortfall is topped up by the minimum.
      const amount = atLeast(missing, choices.find((p) => p.provider === provider)?.minAmount ?? '0');
      const topUp: CheckoutTopUp = { amount, currency: intent.currency, providers: choices, provider, phoneNumber, topup: before?.topup };
      return send(gen, { type: 'wallet.short', topUp, ...(error ? { error } : {}) }) ? 'short' : 'unknown';
    },
    [client, current, readProviders, send],
  );

  const forgetProviders = useCallback(() => {
    providers.current = undefined;
  }, []);
  return { offerTopUp, forgetProviders };
}

/** What the top-up's actions need of the rest of the hook. */
export interface TopUpSteps {
  offerTopUp(gen: number, error?: CheckoutError): Promise<'short' | 'enough' | 'unknown'>;
  /** On to the payment code once the wallet holds enough. */
  proceed(gen: number, stay: CheckoutStatus): Promise<void>;
  sendCode(gen: number, userId: string, channel: OtpChannel | undefined, stay: CheckoutStatus): Promise<void>;
}

/**
 * The wallet's top-up, the payer's half: asks it, waits for the payer's approval on their phone
 * (read every second, at most `TOPUP_WAIT_MS`), offers it again or cancels it.
 */
export function useTopUpActions(rt: CheckoutRuntime, { offerTopUp, proceed, sendCode }: TopUpSteps) {
  const { client, current, generation, clock, send, onError } = rt;
  // Each top-up's wait has its number: a wait that is no longer the latest stops.
  const topUpRun = useRef(0);
  const now = () => clock.current.now();
  const wait = (ms: number) => new Promise((resolve) => clock.current.timers.setTimeout(() => resolve(undefined), ms));

  /** Reads the top-up every second until the provider decided, or the wait is over. */
  const awaitTopUp = useCallback(
    async (gen: number, run: number, first: Topup) => {
      const deadline = now() + TOPUP_WAIT_MS;
      const stale = () => gen !== generation.current || run !== topUpRun.current || current.current.status !== 'topup-pending';
      let topup = first;
      while (topup.status === 'PENDING') {
        if (now() >= deadline) {
          send(gen, { type: 'topUp.failed', error: customerError('topup_timeout') });
          return;
        }
        await wait(TOPUP_POLL_INTERVAL_MS);
        if (stale()) return;
        try {
          topup = await client.getTopup(topup.id);
        } catch (err) {
          if (stale()) return;
          const status = err instanceof CaisseError ? err.status : undefined;
          // No answer or a passing server error: look again at the next tick.
          if (status === undefined || status >= 500 || status === 429) continue;
          return onError(gen, err, 'topup-failed');
        }
        if (stale()) return;
      }
      if (topup.status === 'FAILED') {
        const reason = topup.failureReason ?? undefined;
        const offer = current.current.topUp;
        const providerName = offer?.providers.find((p) => p.provider === offer.provider)?.name ?? topup.provider;
        const error = { ...customerError('topup_failed'), providerName, ...(reason ? { failureReason: reason } : {}) };
        send(gen, { type: 'topUp.failed', error, topup });
        return;
      }
      send(gen, { type: 'topUp.updated', topup });
      await proceed(gen, 'ready');
    },
    [client, current, generation, onError, proceed, send],
  );

  const startTopUp = useCallback(
    async (phoneNumber?: string, provider?: string) => {
      const s = current.current;
      const gen = generation.current;
      if (s.topUp === undefined) return;
      const number = normalizePhone(phoneNumber ?? s.topUp.phoneNumber);
      if (!send(gen, { type: 'topUp.requested', phoneNumber: number, provider: provider ?? s.topUp.provider })) return;
      const run = ++topUpRun.current;
      const offer = current.current.topUp as CheckoutTopUp;
      let topup: Topup;
      try {
        topup = await client.topUp({ amount: offer.amount, currency: offer.currency, provider: offer.provider, phoneNumber: offer.phoneNumber });
      } catch (err) {
        return onError(gen, err, 'topup-offer');
      }
      send(gen, { type: 'topUp.pending', topup });
      await awaitTopUp(gen, run, topup);
    },
    [awaitTopUp, client, onError, send],
  );

  const chooseTopUpProvider = useCallback((provider: string) => void send(generation.current, { type: 'topUp.providerChosen', provider }), [send]);

  const retryTopUp = useCallback(async () => {
    const s = current.current;
    const gen = generation.current;
    if (s.user === undefined || !send(gen, { type: 'topUp.retryRequested' })) return;
    const wallet = await offerTopUp(gen);
    if (gen !== generation.current || wallet === 'short') return;
    // The money arrived meanwhile: on to the payment. Unknown: offer the same top-up again.
    if (wallet === 'enough') return sendCode(gen, s.user.id, undefined, 'ready');
    send(gen, { type: 'topUp.offeredAgain' });
  }, [offerTopUp, sendCode, send]);

  const cancelTopUp = useCallback(() => {
    if (!send(generation.current, { type: 'topUp.canceled' })) return;
    topUpRun.current++;
    client.logout();
  }, [client, send]);

  return { startTopUp, chooseTopUpProvider, retryTopUp, cancelTopUp } satisfies Pick<
    Checkout,
    'startTopUp' | 'chooseTopUpProvider' | 'retryTopUp' | 'cancelTopUp'
  >;
}
