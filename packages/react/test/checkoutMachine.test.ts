import type { AuthenticatedUser, OtpChallenge, PublicPaymentIntent, Topup } from '@caisse/browser';
import { describe, expect, it } from 'vitest';
import {
  type CheckoutEvent,
  type CheckoutState,
  type CheckoutStatus,
  type CheckoutTopUp,
  checkoutReducer,
  INITIAL,
  providerAfterNumber,
  suggestProvider,
} from '../src/checkoutMachine.ts';

const STATUSES: CheckoutStatus[] = [
  'loading',
  'ready',
  'reset-phone',
  'reset-code',
  'logging-in',
  'topup-offer',
  'topup-pending',
  'topup-failed',
  'otp-sent',
  'otp-verified',
  'charging',
  'succeeded',
  'failed',
  'expired',
  'canceled',
  'error',
];

const intent = (status: PublicPaymentIntent['status'] = 'PENDING') =>
  ({ id: 'pi_1', amount: '5000', currency: 'XAF', status, expiresAt: '2026-11-26T08:00:00Z', attempts: 0 }) as unknown as PublicPaymentIntent;
const user = { id: 'usr_1', phoneNumber: '+237650000001' } as AuthenticatedUser;
const otp = { channel: 'sms', destination: '+237 6•• •• ••01' } as OtpChallenge;
const topup = (status: Topup['status']) => ({ id: 'top_1', status, amount: '3500', currency: 'XAF', provider: 'mtn_momo' }) as Topup;
const offer: CheckoutTopUp = {
  amount: '3500',
  currency: 'XAF',
  providers: [
    { provider: 'mtn_momo', name: 'MTN MoMo', prefixes: ['67'] },
    { provider: 'wave', name: 'Wave', prefixes: ['77'] },
  ],
  provider: 'mtn_momo',
  phoneNumber: '+237650000001',
  topup: undefined,
};
const error = (code: string, extra: object = {}) => ({ code, message: code, ...extra });

/** A state at `status` with everything the guards look at: an intent, a signed-in customer, an offer. */
const at = (status: CheckoutStatus, extra: Partial<CheckoutState> = {}): CheckoutState => ({
  ...INITIAL,
  status,
  intent: intent(),
  user,
  topUp: offer,
  phoneNumber: '+237650000001',
  canRetry: true,
  ...extra,
});

/** The customer's commands, and the only steps that take each (any other leaves the state as it was). */
const COMMANDS: [CheckoutEvent, CheckoutStatus[]][] = [
  [{ type: 'signIn.started', phoneNumber: '+237650000001' }, ['ready', 'reset-code']],
  [{ type: 'code.resendRequested' }, ['otp-sent', 'otp-verified']],
  [{ type: 'code.verifyRequested' }, ['otp-sent']],
  [{ type: 'reset.opened' }, ['ready']],
  [{ type: 'reset.requested', phoneNumber: '+237650000001' }, ['reset-phone', 'reset-code']],
  [{ type: 'reset.confirmRequested' }, ['reset-code']],
  [{ type: 'reset.canceled' }, ['reset-phone', 'reset-code']],
  [{ type: 'topUp.providerChosen', provider: 'wave' }, ['topup-offer']],
  [{ type: 'topUp.requested', phoneNumber: '+237650000001', provider: 'mtn_momo' }, ['topup-offer']],
  [{ type: 'topUp.retryRequested' }, ['topup-failed']],
  [{ type: 'topUp.canceled' }, ['topup-offer', 'topup-failed']],
  [{ type: 'charge.started' }, ['otp-verified']],
  [{ type: 'retry.requested' }, ['failed', 'error']],
];

describe('checkoutReducer', () => {
  describe.each(COMMANDS)('$type', (event, accepted) => {
    it.each(STATUSES)('from %s', (status) => {
      const before = at(status);
      const after = checkoutReducer(before, event);
      if (accepted.includes(status)) expect(after).not.toBe(before);
      else expect(after).toBe(before);
    });

    it('is refused while a request runs (pending), except the steps that start one of their own', () => {
      for (const status of accepted) {
        const before = at(status, { pending: true });
        const taken = checkoutReducer(before, event) !== before;
        // The sign-in a password reset leads to runs while it is pending; the others never see a pending request.
        const expected = ['signIn.started', 'charge.started', 'retry.requested', 'reset.opened'].includes(event.type);
        expect(taken, `${event.type} from ${status}`).toBe(expected);
      }
    });
  });

  it('loading reads the intent: PENDING is the step asked for, PROCESSING is charging, a final status its end', () => {
    const read = (status: PublicPaymentIntent['status']) => checkoutReducer(INITIAL, { type: 'intent.read', intent: intent(status), whilePending: 'ready' });
    expect(read('PENDING')).toMatchObject({ status: 'ready', canRetry: true });
    expect(read('PROCESSING').status).toBe('charging');
    expect(read('SUCCEEDED').status).toBe('succeeded');
    expect(read('PARTIALLY_REFUNDED').status).toBe('succeeded');
    expect(read('REFUNDED').status).toBe('succeeded');
    expect(read('FAILED')).toMatchObject({ status: 'failed', canRetry: false });
    expect(read('EXPIRED').status).toBe('expired');
    expect(read('CANCELED').status).toBe('canceled');
    expect(checkoutReducer(INITIAL, { type: 'intent.unreadable', error: error('not_found') })).toMatchObject({ status: 'error', error: { code: 'not_found' } });
  });

  it('a forced step wins over the intent (a declined charge is failed), and the error is kept, replaced or cleared', () => {
    const s = at('charging', { error: error('old') });
    expect(
      checkoutReducer(s, { type: 'intent.read', intent: intent(), whilePending: 'failed', status: 'failed', error: error('insufficient_funds') }),
    ).toMatchObject({
      status: 'failed',
      error: { code: 'insufficient_funds' },
    });
    expect(checkoutReducer(s, { type: 'intent.read', intent: intent(), whilePending: 'ready' }).error?.code).toBe('old');
    expect(checkoutReducer(s, { type: 'intent.read', intent: intent(), whilePending: 'ready', error: null }).error).toBeUndefined();
  });

  it('walks sign-in → code → verified → charging → succeeded', () => {
    let s = at('ready', { user: undefined, topUp: undefined });
    s = checkoutReducer(s, { type: 'signIn.started', phoneNumber: '+237650000002' });
    expect(s).toMatchObject({ status: 'logging-in', phoneNumber: '+237650000002' });
    s = checkoutReducer(s, { type: 'signIn.succeeded', user });
    s = checkoutReducer(s, { type: 'code.sent', otp });
    expect(s).toMatchObject({ status: 'otp-sent', otp, pending: false });
    s = checkoutReducer(s, { type: 'code.verifyRequested' });
    expect(s.pending).toBe(true);
    s = checkoutReducer(s, { type: 'code.verified' });
    expect(s).toMatchObject({ status: 'otp-verified', pending: false });
    s = checkoutReducer(s, { type: 'charge.started' });
    expect(s.status).toBe('charging');
    s = checkoutReducer(s, { type: 'charge.answered', intent: intent('SUCCEEDED'), error: error('payment_failed') });
    expect(s).toMatchObject({ status: 'succeeded', canRetry: false, error: undefined });
  });

  it('a charge answer: PROCESSING keeps charging; a decline is failed, retried while the intent is PENDING', () => {
    const s = at('charging');
    expect(checkoutReducer(s, { type: 'charge.answered', intent: intent('PROCESSING'), error: error('x') }).status).toBe('charging');
    expect(checkoutReducer(s, { type: 'charge.answered', intent: intent('PENDING'), error: error('insufficient_funds') })).toMatchObject({
      status: 'failed',
      canRetry: true,
      error: { code: 'insufficient_funds' },
    });
    expect(checkoutReducer(s, { type: 'charge.answered', intent: intent('FAILED'), error: error('payment_failed') })).toMatchObject({
      status: 'failed',
      canRetry: false,
    });
    expect(checkoutReducer(s, { type: 'charge.codeRefused', error: error('otp_token_invalid') })).toMatchObject({
      status: 'otp-sent',
      error: { code: 'otp_token_invalid' },
    });
  });

  it('a failed request stays on its step with the error; an ended session goes back to sign-in', () => {
    const s = at('otp-sent', { pending: true });
    expect(checkoutReducer(s, { type: 'request.failed', error: error('otp_incorrect', { attemptsRemaining: 4 }), stay: 'otp-sent', now: 0 })).toMatchObject({
      status: 'otp-sent',
      pending: false,
      error: { attemptsRemaining: 4 },
    });
    expect(checkoutReducer(s, { type: 'request.failed', error: error('access_token_invalid'), stay: 'otp-sent', now: 0 }).status).toBe('ready');
    expect(checkoutReducer(s, { type: 'request.failed', error: error('access_token_missing'), stay: 'charging', now: 0 }).status).toBe('ready');
  });

  it('password reset: opened with the typed number, sent, confirmed, canceled', () => {
    let s = at('ready', { phoneNumber: undefined });
    s = checkoutReducer(s, { type: 'reset.opened', phoneNumber: '+237650000009' });
    expect(s).toMatchObject({ status: 'reset-phone', phoneNumber: '+237650000009' });
    s = checkoutReducer(s, { type: 'reset.requested', phoneNumber: '+237650000009' });
    expect(s.pending).toBe(true);
    s = checkoutReducer(s, { type: 'reset.sent', reset: { phoneNumber: '+237650000009' } as never });
    expect(s).toMatchObject({ status: 'reset-code', pending: false });
    expect(checkoutReducer(s, { type: 'reset.canceled' })).toMatchObject({ status: 'ready', reset: undefined, phoneNumber: '+237650000009' });
    s = checkoutReducer(checkoutReducer(s, { type: 'reset.confirmRequested' }), { type: 'reset.confirmed' });
    expect(s).toMatchObject({ passwordChanged: true, reset: undefined });
    // With no number at all there is nothing to confirm.
    expect(checkoutReducer(at('reset-code', { phoneNumber: undefined }), { type: 'reset.confirmRequested' }).pending).toBe(false);
  });

  describe('the top-up', () => {
    it('offer → chosen provider → requested → pending → updated, or failed → offered again → canceled (signed out)', () => {
      let s = checkoutReducer(at('logging-in', { topUp: undefined }), { type: 'wallet.short', topUp: offer });
      expect(s).toMatchObject({ status: 'topup-offer', topUp: { provider: 'mtn_momo' } });
      s = checkoutReducer(s, { type: 'topUp.providerChosen', provider: 'wave' });
      expect(s.topUp?.provider).toBe('wave');
      // A provider that is not offered is not taken, neither chosen nor asked.
      expect(checkoutReducer(s, { type: 'topUp.providerChosen', provider: 'orange_money' })).toBe(s);
      expect(checkoutReducer(s, { type: 'topUp.requested', phoneNumber: '+221770000001', provider: 'orange_money' })).toBe(s);
      s = checkoutReducer(s, { type: 'topUp.requested', phoneNumber: '+221770000001', provider: 'wave' });
      expect(s).toMatchObject({ pending: true, topUp: { phoneNumber: '+221770000001', provider: 'wave' } });
      s = checkoutReducer(s, { type: 'topUp.pending', topup: topup('PENDING') });
      expect(s).toMatchObject({ status: 'topup-pending', pending: false, topUp: { topup: { status: 'PENDING' } } });
      expect(checkoutReducer(s, { type: 'topUp.updated', topup: topup('SUCCEEDED') }).topUp?.topup?.status).toBe('SUCCEEDED');
      s = checkoutReducer(s, { type: 'topUp.failed', error: error('topup_failed', { failureReason: 'APPROVAL_REJECTED' }), topup: topup('FAILED') });
      expect(s).toMatchObject({ status: 'topup-failed', error: { failureReason: 'APPROVAL_REJECTED' }, topUp: { topup: { status: 'FAILED' } } });
      s = checkoutReducer(checkoutReducer(s, { type: 'topUp.retryRequested' }), { type: 'topUp.offeredAgain' });
      expect(s).toMatchObject({ status: 'topup-offer', pending: false });
      expect(checkoutReducer(s, { type: 'topUp.canceled' })).toMatchObject({ status: 'ready', user: undefined, otp: undefined, topUp: undefined });
    });

    it('a top-up answer without an offer changes nothing', () => {
      const s = at('topup-offer', { topUp: undefined });
      expect(checkoutReducer(s, { type: 'topUp.pending', topup: topup('PENDING') })).toBe(s);
      expect(checkoutReducer(s, { type: 'topUp.updated', topup: topup('PENDING') })).toBe(s);
    });
  });

  describe('a code sent moments ago (issue 36)', () => {
    const limited = error('otp_rate_limited', { retryAfter: 11 });

    it('goes to the code step with the wait, which ticks down each second and then says nothing more', () => {
      let s = checkoutReducer(at('logging-in'), { type: 'code.stillValid', error: limited, now: 1_000 });
      expect(s).toMatchObject({ status: 'otp-sent', retryAt: 12_000, error: { retryAfter: 11 } });
      s = checkoutReducer(s, { type: 'tick', now: 2_000 });
      expect(s.error?.retryAfter).toBe(10);
      // Same second: nothing changes.
      expect(checkoutReducer(s, { type: 'tick', now: 2_400 })).toBe(s);
      s = checkoutReducer(s, { type: 'tick', now: 12_000 });
      expect(s).toMatchObject({ error: undefined, retryAt: undefined });
    });

    it('another error keeps its text once its wait is over; without a wait a tick changes nothing', () => {
      let s = checkoutReducer(at('ready'), { type: 'request.failed', error: error('login_locked', { retryAfter: 2 }), stay: 'ready', now: 0 });
      s = checkoutReducer(s, { type: 'tick', now: 5_000 });
      expect(s).toMatchObject({ error: { code: 'login_locked' }, retryAt: undefined });
      expect(s.error?.retryAfter).toBeUndefined();
      expect(checkoutReducer(s, { type: 'tick', now: 9_000 })).toBe(s);
    });
  });

  it('load.started starts over', () => {
    expect(checkoutReducer(at('succeeded'), { type: 'load.started' })).toBe(INITIAL);
  });
});

describe('suggestProvider', () => {
  const methods = [
    { provider: 'mtn_momo', prefixes: ['67', '650'] },
    { provider: 'orange_money', prefixes: ['69', '655'] },
    { provider: 'wave', prefixes: ['+22177'] },
  ];
  it('picks the longest prefix, with or without the country code', () => {
    expect(suggestProvider('+237 670 00 00 00', methods)).toBe('mtn_momo');
    expect(suggestProvider('655000000', methods)).toBe('orange_money');
    expect(suggestProvider('+221 77 000 00 00', methods)).toBe('wave');
    expect(suggestProvider('+237 600 00 00 00', methods)).toBeUndefined();
  });
});

describe('providerAfterNumber', () => {
  const dakar = [
    { provider: 'wave', prefixes: ['70', '75', '76', '77', '78'] },
    { provider: 'orange_money', prefixes: ['77', '78'] },
  ];
  it('keeps the operator shown while it serves the number, even where another claims the prefix', () => {
    expect(providerAfterNumber('77 123 45 67', dakar, 'wave', false)).toBeUndefined();
    // Wave as the gateway lists it: no prefixes, any number of its countries.
    expect(providerAfterNumber('77 123 45 67', [{ provider: 'wave', prefixes: null }, dakar[1]!], 'wave', false)).toBeUndefined();
  });
  it('suggests another when the one shown cannot take the number, and never overrides a choice', () => {
    expect(providerAfterNumber('77 123 45 67', dakar, 'free_money', false)).toBe('wave');
    expect(providerAfterNumber('76 123 45 67', [dakar[1]!], 'orange_money', false)).toBeUndefined();
    expect(providerAfterNumber('77 123 45 67', dakar, 'free_money', true)).toBeUndefined();
  });
});
