import {
  CaisseError,
  type CardMethod,
  type MobileMoneyMethod,
  type NextAction,
  type PayerIntent,
  type PaymentMethod,
  type PublicPaymentIntent,
  type Timers,
} from '@caisse/browser';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type CheckoutError, providerAfterNumber } from './checkoutMachine.ts';
import { customerError, toCheckoutError } from './i18n.tsx';

import { useCaisse } from './provider.tsx';

/**
 * The direct mobile-money payment of the checkout (docs/spec/mobile-money-payments.md), beside the wallet flow of
 * useCheckout:
 *
 *   loading → choose → submitting → waiting → succeeded
 *                ↑  ↘ wallet              ↘ failed → (send again) submitting
 *                └──────────── (pay another way) ┘
 *   submitting → redirecting (a redirect provider: the browser goes to nextAction.url)
 *   waiting | failed → ended (the intent can take no more attempts, expired or was canceled)
 *
 * `choose` offers the methods: mobile money first (the operator suggested from the number's
 * prefix, which the payer can change), the Caisse wallet as one more option (`wallet`: the
 * page shows useCheckout's sign-in). With no mobile-money method at all the status is `wallet`
 * from the start. While `waiting` the intent is read with backoff until the provider answered;
 * `secondsLeft` counts the approval window down, and once it is over the payer may still
 * choose another way (the answer is still awaited meanwhile: a late approval still shows success).
 *
 * A card (docs/spec/card-payments.md) is one more choice of `choose` (`method: 'card'`): the
 * payer gives the card holder's details, each checked here and by the API (a refused field is
 * told next to it, `fieldErrors`), then goes to the card provider's page to type the card, and
 * comes back here to wait for the outcome as from any redirect provider.
 */
export type MobileMoneyStatus = 'loading' | 'choose' | 'wallet' | 'submitting' | 'waiting' | 'redirecting' | 'failed' | 'succeeded' | 'ended';

/** The card holder's details the checkout asks for (the region is the country's code). */
export const CARDHOLDER_FIELDS = ['name', 'surname', 'email', 'phoneNumber', 'address', 'city', 'zipCode', 'country'] as const;
export type CardholderField = (typeof CARDHOLDER_FIELDS)[number];
/** Why a card holder's field is refused: left blank, or not valid (the API's `cardholder_invalid`, `phone_invalid`). */
export type CardholderFieldError = 'required' | 'email' | 'phone_invalid' | 'cardholder_invalid';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The holder's fields refused before anything is sent: blank, an e-mail without its `@` and domain. */
export function checkCardholder(holder: Readonly<Record<CardholderField, string>>): Partial<Record<CardholderField, CardholderFieldError>> {
  const errors: Partial<Record<CardholderField, CardholderFieldError>> = {};
  for (const field of CARDHOLDER_FIELDS) if (holder[field].trim() === '') errors[field] = 'required';
  if (errors.email === undefined && !EMAIL.test(holder.email.trim())) errors.email = 'email';
  return errors;
}

export interface MobileMoneyState {
  status: MobileMoneyStatus;
  /** Every method the intent may use, as the gateway lists them. */
  methods: PaymentMethod[];
  /** The mobile-money ones, in the gateway's order. */
  mobileMoney: MobileMoneyMethod[];
  /** Whether the Caisse wallet is one of the methods. */
  walletOffered: boolean;
  /** The card method when the intent may be paid by card. */
  card: CardMethod | undefined;
  /** Which form `choose` shows: the number and operator, or the card holder's details. */
  method: 'mobile_money' | 'card';
  cardholder: Record<CardholderField, string>;
  /** The card holder's fields refused, by the checkout or by the API, each told next to its field. */
  fieldErrors: Partial<Record<CardholderField, CardholderFieldError>>;
  /** The operator chosen, or suggested from the number. */
  provider: string | undefined;
  /** True once the payer picked the operator themselves: the number no longer changes it. */
  providerChosen: boolean;
  phoneNumber: string;
  /**
   * The one-time code the payer made with their operator, for a method whose `approval` is
   * `pre_authorisation_code`: sent with the payment, then cleared (a code pays once).
   */
  preAuthorisationCode: string;
  /** What the payer does now (`waiting`): approve on the phone before `expiresAt`, or dial `ussd`. */
  nextAction: NextAction | undefined;
  /** Seconds left in the approval window while `waiting` (0 once it is over). */
  secondsLeft: number | undefined;
  /** The intent as last read by this flow. */
  intent: PayerIntent | undefined;
  error: CheckoutError | undefined;
  /**
   * The payer left a provider's page still open (Wave keeps a declined page open) to choose again:
   * the methods show while the intent is still PROCESSING; the gateway closes that page first.
   */
  choosingAgain?: boolean;
}

export interface MobileMoney extends MobileMoneyState {
  /** The number as typed; the operator follows its prefix until the payer picks one. */
  setPhoneNumber(value: string): void;
  /** The code as typed (its spaces go when it is sent). */
  setPreAuthorisationCode(value: string): void;
  chooseProvider(provider: string): void;
  /** The form `choose` shows: mobile money or card. */
  chooseMethod(method: 'mobile_money' | 'card'): void;
  setCardholder(field: CardholderField, value: string): void;
  /** Sends the request to the payer's phone (or to the provider's page). From `choose` or `failed`. */
  pay(): Promise<void>;
  /** After a failure: the same request again, same operator and number. */
  sendAgain(): Promise<void>;
  /** Back to the methods: after a failure, or when the approval window passed. */
  payAnotherWay(): void;
  /** The payer chose the Caisse wallet (`wallet`). */
  chooseWallet(): void;
}

export interface MobileMoneyOptions {
  /** Where a redirect provider sends the browser (default: `location.assign`). */
  navigate?: (url: string) => void;
  /** Timers for the countdown and the reads (tests pass fake ones). */
  timers?: Timers;
  now?: () => number;
}

const FINAL_PAID = ['SUCCEEDED', 'PARTIALLY_REFUNDED', 'REFUNDED'];
/** A card attempt's method, as the API names it. */
const CARD = 'card';
/** "+237 670-00.00 00" → "+237670000000": the separators people type go; the API reads the rest (a national number in the merchant's country). */
const normalize = (phone: string) => phone.replace(/[\s().-]+/g, '');
const newKey = () => crypto.randomUUID();
/** Whole seconds from `now` to the approval window's end (0 once it passed). */
const secondsUntil = (expiresAt: string, now: number) => Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / 1000));

/** Why the last attempt failed: its `failureCode`, else the intent's `lastError`. */
function failureOf(intent: PayerIntent): CheckoutError {
  const last = Array.isArray(intent.attempts) ? intent.attempts[intent.attempts.length - 1] : undefined;
  const code = last?.failureCode ?? intent.lastError?.code ?? 'payment_failed';
  return customerError(code);
}

/** How long after an attempt's start a page opened on its intent is taken for the payer's return from the provider's page. */
const RETURN_WINDOW_MS = 20 * 60 * 1000;

const INITIAL: MobileMoneyState = {
  status: 'loading',
  methods: [],
  mobileMoney: [],
  walletOffered: true,
  card: undefined,
  method: 'mobile_money',
  cardholder: { name: '', surname: '', email: '', phoneNumber: '', address: '', city: '', zipCode: '', country: '' },
  fieldErrors: {},
  provider: undefined,
  providerChosen: false,
  phoneNumber: '',
  preAuthorisationCode: '',
  nextAction: undefined,
  secondsLeft: undefined,
  intent: undefined,
  error: undefined,
};

/**
 * Pays the provider's intent with mobile money. `intent` is the checkout's (useCheckout's)
 * intent: one found PROCESSING (the page was reloaded during an approval) is waited for.
 */
export function useMobileMoney(intent: PublicPaymentIntent | undefined, options: MobileMoneyOptions = {}): MobileMoney {
  const { client, clientSecret } = useCaisse();
  const { timers = globalThis as Timers, now = Date.now } = options;
  const navigate = options.navigate ?? ((url: string) => window.location.assign(url));
  const [state, setState] = useState<MobileMoneyState>(INITIAL);
  const current = useRef(state);
  const watching = useRef<AbortController | undefined>(undefined);
  const options$ = useRef({ timers, now, navigate });
  options$.current = { timers, now, navigate };

  const update = useCallback((patch: Partial<MobileMoneyState>) => {
    const next = { ...current.current, ...patch };
    current.current = next;
    setState(next);
  }, []);

  // The methods, once per intent; a gateway without them (404) leaves the wallet alone.
  useEffect(() => {
    let live = true;
    client.getPaymentMethods(clientSecret).then(
      (methods) => {
        if (!live) return;
        const mobileMoney = methods.filter((m): m is MobileMoneyMethod => m.type === 'mobile_money');
        const card = methods.find((m): m is CardMethod => m.type === 'card');
        const firstAvailable = mobileMoney.find((m) => m.available)?.provider;
        // An attempt found in flight meanwhile (a page reloaded during an approval) keeps its wait.
        const started = current.current.status !== 'loading';
        update({
          methods,
          mobileMoney,
          card,
          walletOffered: methods.some((m) => m.type === 'wallet'),
          provider: started ? current.current.provider : firstAvailable,
          method: started ? current.current.method : mobileMoney.length ? 'mobile_money' : 'card',
          status: started ? current.current.status : mobileMoney.length || card ? 'choose' : 'wallet',
        });
      },
      () => live && current.current.status === 'loading' && update({ status: 'wallet', methods: [{ type: 'wallet' }], walletOffered: true }),
    );
    return () => {
      live = false;
      watching.current?.abort();
    };
  }, [client, clientSecret, update]);

  /** Reads the intent until the provider answered, then moves to what that answer means. */
  const watch = useCallback(async () => {
    if (watching.current && !watching.current.signal.aborted) return;
    const abort = new AbortController();
    watching.current = abort;
    let settled: PayerIntent;
    try {
      settled = await client.waitForPayment(clientSecret, { signal: abort.signal, timers: options$.current.timers, onUpdate: (intent) => update({ intent }) });
    } catch (err) {
      if (abort.signal.aborted) return;
      watching.current = undefined;
      return update({ status: 'failed', error: toCheckoutError(err) });
    }
    watching.current = undefined;
    if (FINAL_PAID.includes(settled.status)) return update({ status: 'succeeded', intent: settled, error: undefined, secondsLeft: undefined });
    if (settled.status !== 'PENDING') return update({ status: 'ended', intent: settled, secondsLeft: undefined });
    // The attempt failed and the intent takes another: tell the payer, unless they already moved on.
    if (current.current.status === 'waiting') update({ status: 'failed', error: failureOf(settled), secondsLeft: undefined, preAuthorisationCode: '' });
  }, [client, clientSecret, update]);

  // A page opened (or reloaded) while an attempt is in flight waits for it.
  const processing = intent?.status === 'PROCESSING';
  useEffect(() => {
    if (!processing || current.current.status === 'waiting' || current.current.status === 'submitting') return;
    const nextAction = (intent as PayerIntent).nextAction ?? undefined;
    const secondsLeft = nextAction?.type === 'approve_on_phone' ? secondsUntil(nextAction.expiresAt, options$.current.now()) : undefined;
    update({ status: 'waiting', intent: intent as PayerIntent, nextAction, secondsLeft });
    void watch();
    // Only on the intent becoming PROCESSING, not on every read of it.
  }, [processing]);

  // Back from a redirect provider's page where the payer declined or cancelled: the attempt has
  // FAILED and the intent takes another. Said once, as the page first offers the methods, with
  // "send again" and "pay another way", rather than a blank choice.
  const checkedReturn = useRef(false);
  useEffect(() => {
    if (state.status !== 'choose' || intent === undefined || checkedReturn.current) return;
    checkedReturn.current = true;
    const payer = intent as PayerIntent;
    const last = payer.status === 'PENDING' && Array.isArray(payer.attempts) ? payer.attempts[payer.attempts.length - 1] : undefined;
    const byCard = last?.provider === CARD && state.card !== undefined;
    const redirect = byCard || state.mobileMoney.find((m) => m.provider === last?.provider)?.approval === 'redirect';
    if (last?.status !== 'FAILED' || !redirect || options$.current.now() - Date.parse(last.createdAt) > RETURN_WINDOW_MS) return;
    update(
      byCard
        ? { status: 'failed', method: 'card', error: failureOf(payer) }
        : { status: 'failed', method: 'mobile_money', provider: last.provider, providerChosen: true, error: failureOf(payer) },
    );
  }, [state.status, intent, state.mobileMoney, state.card, update]);

  // The approval window, counted down once a second.
  const expiresAt = state.status === 'waiting' && state.nextAction?.type === 'approve_on_phone' ? state.nextAction.expiresAt : undefined;
  useEffect(() => {
    if (expiresAt === undefined) return;
    const { timers: t, now: clock } = options$.current;
    let handle: unknown;
    const tick = () => {
      const left = secondsUntil(expiresAt, clock());
      if (current.current.secondsLeft !== left) update({ secondsLeft: left });
      if (left > 0) handle = t.setTimeout(tick, 1000);
    };
    tick();
    return () => t.clearTimeout(handle);
  }, [expiresAt, update]);

  const setPhoneNumber = useCallback(
    (value: string) => {
      const s = current.current;
      const suggested = providerAfterNumber(value, s.mobileMoney, s.provider, s.providerChosen);
      update({ phoneNumber: value, ...(suggested ? { provider: suggested } : {}) });
    },
    [update],
  );

  const chooseProvider = useCallback((provider: string) => update({ provider, providerChosen: true }), [update]);
  const setPreAuthorisationCode = useCallback((value: string) => update({ preAuthorisationCode: value }), [update]);

  const chooseMethod = useCallback(
    (method: 'mobile_money' | 'card') => {
      const s = current.current;
      if (s.status !== 'choose' || (method === 'card' ? s.card === undefined : s.mobileMoney.length === 0)) return;
      update({ method, error: undefined });
    },
    [update],
  );

  const setCardholder = useCallback(
    (field: CardholderField, value: string) => {
      const s = current.current;
      const { [field]: _fixed, ...fieldErrors } = s.fieldErrors;
      update({ cardholder: { ...s.cardholder, [field]: value }, fieldErrors });
    },
    [update],
  );

  /** Sends the card holder's details: the answer is the card provider's page. */
  const payByCard = useCallback(
    async (target: { id: string }): Promise<PayerIntent | undefined> => {
      const s = current.current;
      const fieldErrors = checkCardholder(s.cardholder);
      if (Object.keys(fieldErrors).length > 0) return void update({ status: 'choose', method: 'card', fieldErrors, error: undefined });
      update({ status: 'submitting', error: undefined, fieldErrors: {}, choosingAgain: false });
      const h = s.cardholder;
      try {
        return await client.payWithCard({
          sessionToken: clientSecret,
          intentionId: target.id,
          cardholder: {
            name: h.name.trim(),
            surname: h.surname.trim(),
            email: h.email.trim(),
            phoneNumber: normalize(h.phoneNumber),
            address: h.address.trim(),
            city: h.city.trim(),
            zipCode: h.zipCode.trim(),
            country: h.country,
          },
          idempotencyKey: newKey(),
        });
      } catch (err) {
        // A refused field is told next to it; anything else above the form.
        const field = err instanceof CaisseError ? /^paymentMethod\.cardholder\.(\w+)$/.exec(err.param ?? '')?.[1] : undefined;
        if (field !== undefined && (CARDHOLDER_FIELDS as readonly string[]).includes(field) && err instanceof CaisseError)
          update({
            status: 'choose',
            method: 'card',
            fieldErrors: { [field]: err.code === 'phone_invalid' ? 'phone_invalid' : 'cardholder_invalid' },
          });
        else update({ status: 'choose', method: 'card', error: toCheckoutError(err) });
        return undefined;
      }
    },
    [client, clientSecret, update],
  );

  const pay = useCallback(async () => {
    const s = current.current;
    const target = intent ?? s.intent;
    if ((s.status !== 'choose' && s.status !== 'failed') || target === undefined) return;
    let answer: PayerIntent;
    let preAuthorisationCode = '';
    if (s.method === 'card') {
      const paid = await payByCard(target);
      if (paid === undefined) return;
      answer = paid;
    } else {
      if (s.provider === undefined) return;
      const phoneNumber = normalize(s.phoneNumber);
      const needsCode = s.mobileMoney.find((m) => m.provider === s.provider)?.approval === 'pre_authorisation_code';
      preAuthorisationCode = needsCode ? s.preAuthorisationCode.replace(/\s+/g, '') : '';
      update({ status: 'submitting', error: undefined, phoneNumber, choosingAgain: false });
      try {
        answer = await client.payWithMobileMoney({
          sessionToken: clientSecret,
          intentionId: target.id,
          provider: s.provider,
          phoneNumber,
          ...(preAuthorisationCode !== '' ? { preAuthorisationCode } : {}),
          idempotencyKey: newKey(),
        });
      } catch (err) {
        // Refused before any request reached the phone: the form again, with the reason.
        return update({ status: 'choose', error: toCheckoutError(err) });
      }
    }
    const nextAction = answer.nextAction ?? undefined;
    if (nextAction?.type === 'redirect') {
      update({ status: 'redirecting', intent: answer, nextAction });
      return options$.current.navigate(nextAction.url);
    }
    // The code went with this request: it pays once, a retry needs a new one.
    if (preAuthorisationCode !== '') update({ preAuthorisationCode: '' });
    if (FINAL_PAID.includes(answer.status)) return update({ status: 'succeeded', intent: answer });
    // The window's seconds come with the status: a first render without them would show the window as over.
    const secondsLeft = nextAction?.type === 'approve_on_phone' ? secondsUntil(nextAction.expiresAt, options$.current.now()) : undefined;
    update({ status: 'waiting', intent: answer, nextAction, secondsLeft });
    await watch();
  }, [client, clientSecret, intent, update, watch, payByCard]);

  const sendAgain = useCallback(async () => {
    if (current.current.status !== 'failed') return;
    await pay();
  }, [pay]);

  const payAnotherWay = useCallback(() => {
    const s = current.current;
    // A provider's page has no window to count: a payer back from it may choose again at once.
    const onPage = s.status === 'waiting' && s.nextAction?.type === 'redirect';
    const windowOver = s.status === 'waiting' && s.secondsLeft === 0;
    if (s.status !== 'failed' && s.status !== 'wallet' && !windowOver && !onPage) return;
    const choices = s.mobileMoney.length > 0 || s.card !== undefined;
    update({
      status: choices ? 'choose' : 'wallet',
      method: s.mobileMoney.length ? s.method : 'card',
      error: undefined,
      secondsLeft: undefined,
      choosingAgain: onPage && choices,
    });
  }, [update]);

  const chooseWallet = useCallback(() => {
    const s = current.current;
    if (s.status === 'choose' && s.walletOffered) update({ status: 'wallet', error: undefined });
  }, [update]);

  return { ...state, setPhoneNumber, setPreAuthorisationCode, chooseProvider, chooseMethod, setCardholder, pay, sendAgain, payAnotherWay, chooseWallet };
}
