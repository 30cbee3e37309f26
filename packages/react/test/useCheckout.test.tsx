import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { atLeast, CaisseProvider, type CheckoutStatus, shortfall, TOPUP_POLL_INTERVAL_MS, TOPUP_WAIT_MS, useCheckout } from '../src/index.ts';
import { fakeGateway, REJECTED_NUMBER, SILENT_NUMBER } from './fake-gateway.ts';

function setup(gateway: ReturnType<typeof fakeGateway>, clientSecret = 'ps_good') {
  const seen: CheckoutStatus[] = [];
  const wrapper = ({ children }: { children?: ReactNode }) => (
    <CaisseProvider apiKey="pk_test_abcdefghijklmnopqrstuvwx" clientSecret={clientSecret} client={gateway.client}>
      {children}
    </CaisseProvider>
  );
  const hook = renderHook(
    () => {
      const checkout = useCheckout();
      if (seen.at(-1) !== checkout.status) seen.push(checkout.status);
      return checkout;
    },
    { wrapper },
  );
  return { ...hook, seen };
}

afterEach(cleanup);

/** Waits for `ready`, signs in and verifies the right code: the checkout is at otp-verified. */
async function verifiedCustomer(result: { current: ReturnType<typeof useCheckout> }) {
  await waitFor(() => expect(result.current.status).toBe('ready'));
  await act(() => result.current.login('+237650000001', 'correct horse'));
  await act(() => result.current.verifyCode('123456'));
  expect(result.current.status).toBe('otp-verified');
}

describe('useCheckout', () => {
  it('moves loading → ready → logging-in → otp-sent → otp-verified → charging → succeeded', async () => {
    const gateway = fakeGateway();
    const { result, seen } = setup(gateway);
    expect(result.current.status).toBe('loading');
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.intent?.amount).toBe('5000');

    let step: Promise<void> = Promise.resolve();
    act(() => {
      step = result.current.login('+237650000001', 'correct horse');
    });
    expect(result.current.status).toBe('logging-in');
    await act(() => step);
    expect(result.current.status).toBe('otp-sent');
    expect(result.current.otp?.destination).toBe('+237 6•• •• ••01');
    expect(result.current.user?.id).toBe('usr_1');

    act(() => {
      step = result.current.verifyCode(' 123456 ');
    });
    expect(result.current.pending).toBe(true);
    await act(() => step);
    expect(result.current.status).toBe('otp-verified');
    expect(result.current.pending).toBe(false);

    act(() => {
      step = result.current.pay();
    });
    expect(result.current.status).toBe('charging');
    await act(() => step);
    expect(result.current.status).toBe('succeeded');
    expect(result.current.intent?.status).toBe('SUCCEEDED');
    expect(seen).toEqual(['loading', 'ready', 'logging-in', 'otp-sent', 'otp-verified', 'charging', 'succeeded']);
    // The money moved once.
    expect(gateway.state.balance).toBe(5000);
    expect(gateway.state.requests.filter((r) => r === 'POST /charge')).toHaveLength(1);
  });

  it('ignores a step called out of order', async () => {
    const gateway = fakeGateway();
    const { result } = setup(gateway);
    await waitFor(() => expect(result.current.status).toBe('ready'));
    await act(() => result.current.pay());
    await act(() => result.current.verifyCode('123456'));
    expect(result.current.status).toBe('ready');
    expect(gateway.state.requests).toEqual(['GET /gateway/sessions/ps_good']);
  });

  it('a wrong password keeps the step, with the error to show', async () => {
    const { result } = setup(fakeGateway());
    await waitFor(() => expect(result.current.status).toBe('ready'));
    await act(() => result.current.login('+237650000001', 'wrong'));
    expect(result.current.status).toBe('ready');
    expect(result.current.error).toMatchObject({ code: 'invalid_credentials', message: 'The phone number or password is not right.' });
  });

  it('a wrong code keeps otp-sent and says how many tries are left; a new code clears the error', async () => {
    const gateway = fakeGateway();
    const { result } = setup(gateway);
    await waitFor(() => expect(result.current.status).toBe('ready'));
    await act(() => result.current.login('+237650000001', 'correct horse'));
    await act(() => result.current.verifyCode('000000'));
    expect(result.current.status).toBe('otp-sent');
    expect(result.current.error).toMatchObject({ code: 'otp_incorrect', attemptsRemaining: 4 });
    await act(() => result.current.resendCode());
    expect(result.current.error).toBeUndefined();
    expect(gateway.state.codesSent).toBe(2);
  });

  it('a declined charge whose wallet cannot be read is failed; retry reads the wallet and offers the top-up', async () => {
    const gateway = fakeGateway({ mobileMoney: true });
    const { result } = setup(gateway);
    await verifiedCustomer(result);
    // The wallet was spent elsewhere after sign-in, and cannot be read when the charge is declined.
    gateway.state.balance = 100;
    gateway.state.failNext.add('/wallet');
    await act(() => result.current.pay());
    expect(result.current.status).toBe('failed');
    expect(result.current.error?.code).toBe('insufficient_funds');
    expect(result.current.canRetry).toBe(true);

    await act(() => result.current.retry());
    expect(result.current.status).toBe('topup-offer');
    expect(result.current.topUp).toMatchObject({ amount: '4900', currency: 'XAF' });

    // Money arrived some other way: Cancel signs out, and signing in again goes straight to the code.
    gateway.state.balance = 10_000;
    act(() => result.current.cancelTopUp());
    expect(result.current.status).toBe('ready');
    expect(result.current.user).toBeUndefined();
    expect(gateway.client.userId).toBeUndefined();
    await act(() => result.current.login('+237650000001', 'correct horse'));
    expect(result.current.status).toBe('otp-sent');
    await act(() => result.current.verifyCode('123456'));
    await act(() => result.current.pay());
    expect(result.current.status).toBe('succeeded');
  });

  it('after the last attempt the intent is FAILED and neither retry nor a top-up is offered', async () => {
    const gateway = fakeGateway();
    gateway.state.intent = { ...gateway.state.intent, attempts: 2 };
    const { result } = setup(gateway);
    await verifiedCustomer(result);
    gateway.state.balance = 0;
    await act(() => result.current.pay());
    expect(result.current.status).toBe('failed');
    expect(result.current.intent?.status).toBe('FAILED');
    expect(result.current.canRetry).toBe(false);
  });

  it.each([
    ['EXPIRED', 'expired'],
    ['CANCELED', 'canceled'],
    ['SUCCEEDED', 'succeeded'],
    ['FAILED', 'failed'],
  ] as const)('an intent already %s opens as %s', async (status, expected) => {
    const { result } = setup(fakeGateway({ status }));
    await waitFor(() => expect(result.current.status).toBe(expected));
  });

  it('an intent that expires while the customer is on the page turns expired (on a fake clock)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const { result } = setup(fakeGateway({ expiresInMs: 10 * 60_000 }));
      await act(() => vi.advanceTimersByTimeAsync(0));
      expect(result.current.status).toBe('ready');
      await act(() => vi.advanceTimersByTimeAsync(9 * 60_000));
      expect(result.current.status).toBe('ready');
      await act(() => vi.advanceTimersByTimeAsync(60_000 + 1000));
      expect(result.current.status).toBe('expired');
    } finally {
      vi.useRealTimers();
    }
  });

  it('an intent that expired before the charge is expired, not failed', async () => {
    const gateway = fakeGateway();
    const { result } = setup(gateway);
    await verifiedCustomer(result);
    gateway.state.intent = { ...gateway.state.intent, expiresAt: new Date(Date.now() - 1000).toISOString() };
    await act(() => result.current.pay());
    expect(result.current.status).toBe('expired');
  });

  it('a charge that meets a mobile-money request waiting on the phone (another tab) waits for its outcome', async () => {
    const gateway = fakeGateway();
    const { result } = setup(gateway);
    await verifiedCustomer(result);
    gateway.state.intent = { ...gateway.state.intent, status: 'PROCESSING' };
    await act(() => result.current.pay());
    expect(result.current.status).toBe('charging');
    expect(result.current.intent?.status).toBe('PROCESSING');
  });

  it('an unknown client secret is an error; a network failure during the charge reads the intent to decide', async () => {
    const bad = setup(fakeGateway(), 'ps_unknown');
    await waitFor(() => expect(bad.result.current.status).toBe('error'));
    expect(bad.result.current.error?.code).toBe('not_found');

    const gateway = fakeGateway();
    const { result } = setup(gateway);
    await verifiedCustomer(result);
    gateway.state.dropNext.add('/charge');
    await act(() => result.current.pay());
    expect(result.current.status).toBe('error');
    expect(result.current.error?.code).toBe('connection_error');
    // Retry: a new code, then the payment.
    await act(() => result.current.retry());
    expect(result.current.status).toBe('otp-sent');
    await act(() => result.current.verifyCode('123456'));
    await act(() => result.current.pay());
    expect(result.current.status).toBe('succeeded');
  });

  it('a server error during the charge is error; retry starts a new attempt', async () => {
    const gateway = fakeGateway();
    const { result } = setup(gateway);
    await verifiedCustomer(result);
    gateway.state.failNext.add('/charge');
    await act(() => result.current.pay());
    expect(result.current.status).toBe('error');
    expect(result.current.error?.code).toBe('internal_error');
    await act(() => result.current.retry());
    expect(result.current.status).toBe('otp-sent');
  });

  describe('forgot password', () => {
    it('ready → reset-phone → reset-code → logging-in → otp-sent: the new password signs the customer in, then the payment goes on', async () => {
      const gateway = fakeGateway();
      const { result, seen } = setup(gateway);
      await waitFor(() => expect(result.current.status).toBe('ready'));
      act(() => result.current.forgotPassword(' +237 650 00 00 01 '));
      expect(result.current.status).toBe('reset-phone');
      // The number typed at sign-in comes along, to prefill the form.
      expect(result.current.phoneNumber).toBe('+237650000001');

      let step: Promise<void> = Promise.resolve();
      act(() => {
        step = result.current.requestPasswordReset();
      });
      expect(result.current.pending).toBe(true);
      await act(() => step);
      expect(result.current.status).toBe('reset-code');
      expect(result.current.pending).toBe(false);
      expect(result.current.reset).toMatchObject({ object: 'password_reset', phoneNumber: '+237650000001', channel: 'sms' });
      expect(gateway.state.resetsSent).toBe(1);

      await act(() => result.current.confirmPasswordReset(' 654321 ', 'a brand new horse'));
      expect(result.current.status).toBe('otp-sent');
      expect(result.current.passwordChanged).toBe(true);
      expect(result.current.user?.id).toBe('usr_1');
      expect(gateway.state.password).toBe('a brand new horse');
      expect(gateway.state.requests).toEqual([
        'GET /gateway/sessions/ps_good',
        'POST /auth/password-reset',
        'POST /auth/password-reset/confirm',
        'POST /auth/web',
        'GET /wallet',
        'POST /otp/init',
      ]);
      await act(() => result.current.verifyCode('123456'));
      await act(() => result.current.pay());
      expect(result.current.status).toBe('succeeded');
      // (logging-in and charging pass within one act() each here.)
      expect(seen).toEqual(['loading', 'ready', 'reset-phone', 'reset-code', 'otp-sent', 'otp-verified', 'succeeded']);
    });

    it('a weak password or a wrong code keeps reset-code with the error (and the tries left); a new code can be sent', async () => {
      const gateway = fakeGateway();
      const { result } = setup(gateway);
      await waitFor(() => expect(result.current.status).toBe('ready'));
      act(() => result.current.forgotPassword());
      expect(result.current.phoneNumber).toBeUndefined();
      await act(() => result.current.requestPasswordReset('+237650000001'));
      expect(result.current.status).toBe('reset-code');

      await act(() => result.current.confirmPasswordReset('654321', 'password'));
      expect(result.current.status).toBe('reset-code');
      expect(result.current.error).toMatchObject({ code: 'password_weak', message: expect.stringContaining('stronger password') });

      await act(() => result.current.confirmPasswordReset('000000', 'a brand new horse'));
      expect(result.current.status).toBe('reset-code');
      expect(result.current.error).toMatchObject({ code: 'otp_incorrect', attemptsRemaining: 4 });
      expect(gateway.state.password).toBe('correct horse');

      await act(() => result.current.requestPasswordReset());
      expect(result.current.status).toBe('reset-code');
      expect(result.current.error).toBeUndefined();
      expect(gateway.state.resetsSent).toBe(2);
      expect(gateway.state.requests.filter((r) => r === 'POST /auth/password-reset')).toHaveLength(2);
    });

    it('an invalid number keeps reset-phone with the error; back to sign-in keeps the number for the form', async () => {
      const gateway = fakeGateway();
      const { result } = setup(gateway);
      await waitFor(() => expect(result.current.status).toBe('ready'));
      act(() => result.current.forgotPassword('650000001'));
      await act(() => result.current.requestPasswordReset());
      expect(result.current.status).toBe('reset-phone');
      expect(result.current.error?.code).toBe('phone_invalid');
      act(() => result.current.cancelPasswordReset());
      expect(result.current.status).toBe('ready');
      expect(result.current.error).toBeUndefined();
      expect(result.current.phoneNumber).toBe('650000001');
      // The old password still signs in: nothing was changed.
      await act(() => result.current.login('+237650000001', 'correct horse'));
      expect(result.current.status).toBe('otp-sent');
      expect(result.current.passwordChanged).toBe(false);
    });

    it('is offered from ready only, and ignores reset steps called out of order', async () => {
      const gateway = fakeGateway();
      const { result } = setup(gateway);
      await waitFor(() => expect(result.current.status).toBe('ready'));
      await act(() => result.current.requestPasswordReset('+237650000001'));
      await act(() => result.current.confirmPasswordReset('654321', 'a brand new horse'));
      act(() => result.current.cancelPasswordReset());
      expect(result.current.status).toBe('ready');
      await act(() => result.current.login('+237650000001', 'correct horse'));
      act(() => result.current.forgotPassword('+237650000001'));
      expect(result.current.status).toBe('otp-sent');
      expect(gateway.state.requests.some((r) => r.includes('password-reset'))).toBe(false);
    });
  });

  describe('a short wallet: the top-up by mobile money', () => {
    it('computes what is missing on decimal strings, without floats', () => {
      expect(shortfall('5000', '1500')).toBe('3500');
      expect(shortfall('5000', '5000')).toBeUndefined();
      expect(shortfall('5000', '7000.5')).toBeUndefined();
      expect(shortfall('12.50', '10')).toBe('2.50');
      expect(shortfall('0.30', '0.1')).toBe('0.20');
      expect(shortfall('1', '0.99')).toBe('0.01');
      expect(shortfall('999999999999', '0')).toBe('999999999999');
    });

    it("a shortfall under the provider's minimum is topped up by the minimum, which the provider takes", async () => {
      expect(atLeast('50', '100')).toBe('100');
      expect(atLeast('3500', '100')).toBe('3500');
      expect(atLeast('0.50', '1')).toBe('1');
      const gateway = fakeGateway({ balance: 4950, mobileMoney: true });
      const { result } = setup(gateway);
      await waitFor(() => expect(result.current.status).toBe('ready'));
      await act(() => result.current.login('+237650000001', 'correct horse'));
      expect(result.current.status).toBe('topup-offer');
      expect(result.current.topUp).toMatchObject({ amount: '100', currency: 'XAF', provider: 'mtn_momo' });
    });

    it('reads the wallet after sign-in and offers the missing amount before any code is sent', async () => {
      const gateway = fakeGateway({ balance: 1500, mobileMoney: true });
      const { result, seen } = setup(gateway);
      await waitFor(() => expect(result.current.status).toBe('ready'));
      await act(() => result.current.login('+237 650 00 00 01', 'correct horse'));
      expect(result.current.status).toBe('topup-offer');
      // The providers come from GET /payment-methods: those approved on the phone (not a redirect provider's).
      expect(result.current.topUp).toMatchObject({ amount: '3500', currency: 'XAF', provider: 'mtn_momo', phoneNumber: '+237650000001', topup: undefined });
      expect(result.current.topUp?.providers.map((p) => [p.provider, p.name])).toEqual([['mtn_momo', 'MTN MoMo']]);
      expect(result.current.error).toBeUndefined();
      expect(gateway.state.requests).toEqual(['GET /gateway/sessions/ps_good', 'POST /auth/web', 'GET /wallet', 'GET /payment-methods']);
      expect(gateway.state.codesSent).toBe(0);
      // (logging-in passes within one act() here.)
      expect(seen).toEqual(['loading', 'ready', 'topup-offer']);
      // The other steps' actions do nothing here.
      await act(() => result.current.verifyCode('123456'));
      await act(() => result.current.pay());
      expect(result.current.status).toBe('topup-offer');
    });

    it('a wallet that cannot be read does not stop the payment: the code goes out', async () => {
      const gateway = fakeGateway();
      gateway.state.failNext.add('/wallet');
      const { result } = setup(gateway);
      await waitFor(() => expect(result.current.status).toBe('ready'));
      await act(() => result.current.login('+237650000001', 'correct horse'));
      expect(result.current.status).toBe('otp-sent');
    });

    describe('on a fake clock', () => {
      beforeEach(() => {
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      });
      afterEach(() => {
        vi.useRealTimers();
      });

      /** Renders, signs in (the code by `channel`) and lands on topup-offer. */
      async function shortCustomer(gateway: ReturnType<typeof fakeGateway>, channel: 'sms' | 'email' = 'sms') {
        const hook = setup(gateway);
        await act(() => vi.advanceTimersByTimeAsync(0));
        expect(hook.result.current.status).toBe('ready');
        await act(() => hook.result.current.login('+237650000001', 'correct horse', channel));
        expect(hook.result.current.status).toBe('topup-offer');
        return hook;
      }

      /** Runs `step` while the clock moves on by `ms`. */
      async function during(step: () => Promise<void>, ms: number) {
        let running: Promise<void> = Promise.resolve();
        act(() => {
          running = step();
        });
        await act(() => vi.advanceTimersByTimeAsync(ms));
        await act(() => running);
      }

      it('tops up the missing amount, waits for the approval, then sends the code (by the channel chosen) and pays', async () => {
        const gateway = fakeGateway({ balance: 1000, mobileMoney: true });
        gateway.state.topupReadsToSettle = 2;
        const { result, seen } = await shortCustomer(gateway, 'email');

        let running: Promise<void> = Promise.resolve();
        act(() => {
          running = result.current.startTopUp();
        });
        expect(result.current.pending).toBe(true);
        await act(() => vi.advanceTimersByTimeAsync(0));
        expect(result.current.status).toBe('topup-pending');
        expect(result.current.pending).toBe(false);
        expect(result.current.topUp?.topup).toMatchObject({ id: 'top_1', status: 'PENDING', amount: '4000', phoneNumber: '+237650000001' });
        // Read again every second while the payer has not approved.
        await act(() => vi.advanceTimersByTimeAsync(TOPUP_POLL_INTERVAL_MS));
        expect(result.current.status).toBe('topup-pending');
        await act(() => vi.advanceTimersByTimeAsync(TOPUP_POLL_INTERVAL_MS));
        await act(() => running);
        expect(result.current.status).toBe('otp-sent');
        expect(result.current.otp?.channel).toBe('email');
        expect(result.current.topUp?.topup?.status).toBe('SUCCEEDED');
        expect(gateway.state.topupKeys).toHaveLength(1);
        expect(gateway.state.topupKeys[0]).toMatch(/^[0-9a-f]{32}$/);
        expect(gateway.state.requests).toEqual([
          'GET /gateway/sessions/ps_good',
          'POST /auth/web',
          'GET /wallet',
          'GET /payment-methods',
          'POST /wallet/topups',
          'GET /wallet/topups/top_1',
          'GET /wallet/topups/top_1',
          'GET /wallet',
          'POST /otp/init',
        ]);

        await act(() => result.current.verifyCode('123456'));
        await act(() => result.current.pay());
        expect(result.current.status).toBe('succeeded');
        expect(gateway.state.balance).toBe(0);
        // (logging-in and charging pass within one act() each here.)
        expect(seen).toEqual(['loading', 'ready', 'topup-offer', 'topup-pending', 'otp-sent', 'otp-verified', 'succeeded']);
      });

      it('a FAILED top-up says why; the customer tries again from another number, or cancels', async () => {
        const gateway = fakeGateway({ balance: 0, mobileMoney: true });
        const { result } = await shortCustomer(gateway);
        await during(() => result.current.startTopUp(` ${REJECTED_NUMBER} `), TOPUP_POLL_INTERVAL_MS);
        expect(result.current.status).toBe('topup-failed');
        expect(result.current.error).toMatchObject({ code: 'topup_failed', failureReason: 'APPROVAL_REJECTED', message: 'The top-up did not go through.' });
        expect(result.current.topUp).toMatchObject({ phoneNumber: REJECTED_NUMBER, topup: { status: 'FAILED', failureReason: 'APPROVAL_REJECTED' } });
        expect(gateway.state.balance).toBe(0);
        expect(gateway.state.codesSent).toBe(0);

        // Try again: the offer again, with the number last typed.
        await act(() => result.current.retryTopUp());
        expect(result.current.status).toBe('topup-offer');
        expect(result.current.error).toBeUndefined();
        expect(result.current.topUp).toMatchObject({ amount: '5000', phoneNumber: REJECTED_NUMBER });
        await during(() => result.current.startTopUp('+237650000001'), TOPUP_POLL_INTERVAL_MS);
        expect(result.current.status).toBe('otp-sent');
        expect(gateway.state.balance).toBe(5000);
        // A new top-up, under a new Idempotency-Key.
        expect(new Set(gateway.state.topupKeys).size).toBe(2);
      });

      it('cancel after a FAILED top-up goes back to sign-in, signed out', async () => {
        const gateway = fakeGateway({ balance: 0, mobileMoney: true });
        const { result } = await shortCustomer(gateway);
        await during(() => result.current.startTopUp(REJECTED_NUMBER), TOPUP_POLL_INTERVAL_MS);
        expect(result.current.status).toBe('topup-failed');
        act(() => result.current.cancelTopUp());
        expect(result.current).toMatchObject({ status: 'ready', user: undefined, topUp: undefined, error: undefined });
        expect(gateway.client.userId).toBeUndefined();
      });

      it('gives up waiting after a bound, with a clear message; trying again finds the money if it arrived', async () => {
        const gateway = fakeGateway({ balance: 0, mobileMoney: true });
        const { result } = await shortCustomer(gateway);
        await during(() => result.current.startTopUp(SILENT_NUMBER), TOPUP_WAIT_MS + TOPUP_POLL_INTERVAL_MS);
        expect(result.current.status).toBe('topup-failed');
        expect(result.current.error).toMatchObject({ code: 'topup_timeout', message: expect.stringContaining('did not confirm the top-up in time') });
        const reads = gateway.state.requests.filter((r) => r === 'GET /wallet/topups/top_1').length;
        expect(reads).toBeGreaterThanOrEqual(TOPUP_WAIT_MS / TOPUP_POLL_INTERVAL_MS - 1);
        expect(reads).toBeLessThanOrEqual(TOPUP_WAIT_MS / TOPUP_POLL_INTERVAL_MS + 1);
        // Nothing reads it any more.
        await act(() => vi.advanceTimersByTimeAsync(10 * TOPUP_POLL_INTERVAL_MS));
        expect(gateway.state.requests.filter((r) => r === 'GET /wallet/topups/top_1').length).toBe(reads);

        // The payer approved late: the wallet holds it now, so trying again goes on to the code.
        gateway.state.balance = 5000;
        await act(() => result.current.retryTopUp());
        expect(result.current.status).toBe('otp-sent');
      });

      it('a refused top-up request (a number that is not valid) keeps the offer with the error', async () => {
        const gateway = fakeGateway({ balance: 0, mobileMoney: true });
        const { result } = await shortCustomer(gateway);
        await act(() => result.current.startTopUp('650000001'));
        expect(result.current.status).toBe('topup-offer');
        expect(result.current.error).toMatchObject({ code: 'phone_invalid' });
        expect(result.current.pending).toBe(false);
        expect(gateway.state.topups).toHaveLength(0);
      });

      it('a declined charge (the wallet shrank after sign-in) offers the top-up of what is missing, then pays', async () => {
        const gateway = fakeGateway({ balance: 10_000, mobileMoney: true });
        const { result } = setup(gateway);
        await act(() => vi.advanceTimersByTimeAsync(0));
        await act(() => result.current.login('+237650000001', 'correct horse'));
        await act(() => result.current.verifyCode('123456'));
        gateway.state.balance = 1200;
        await act(() => result.current.pay());
        expect(result.current.status).toBe('topup-offer');
        expect(result.current.error).toMatchObject({ code: 'insufficient_funds', message: 'Your wallet does not hold enough for this payment.' });
        expect(result.current.topUp).toMatchObject({ amount: '3800', currency: 'XAF' });
        expect(result.current.intent).toMatchObject({ status: 'PENDING' });
        expect(gateway.state.intent.attempts).toBe(1);
        await during(() => result.current.startTopUp(), TOPUP_POLL_INTERVAL_MS);
        expect(result.current.status).toBe('otp-sent');
        expect(gateway.state.codesSent).toBe(2);
        await act(() => result.current.verifyCode('123456'));
        await act(() => result.current.pay());
        expect(result.current.status).toBe('succeeded');
        expect(gateway.state.balance).toBe(0);
      });

      it('stops waiting when the component leaves', async () => {
        const gateway = fakeGateway({ balance: 0, mobileMoney: true });
        gateway.state.topupReadsToSettle = 100;
        const { result, unmount } = await shortCustomer(gateway);
        act(() => {
          void result.current.startTopUp();
        });
        await act(() => vi.advanceTimersByTimeAsync(3 * TOPUP_POLL_INTERVAL_MS));
        const reads = gateway.state.requests.filter((r) => r.startsWith('GET /wallet/topups/')).length;
        expect(reads).toBeGreaterThan(0);
        unmount();
        await act(() => vi.advanceTimersByTimeAsync(5 * TOPUP_POLL_INTERVAL_MS));
        expect(gateway.state.requests.filter((r) => r.startsWith('GET /wallet/topups/')).length).toBeLessThanOrEqual(reads + 1);
      });
    });
  });

  it('signing in again while a code sent moments ago is still good goes to the code step, whose wait ticks down (issue 36)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const gateway = fakeGateway();
      gateway.state.tooMany.set('/otp/init', { code: 'otp_rate_limited', retryAfter: 11 });
      const { result } = setup(gateway);
      await act(() => vi.advanceTimersByTimeAsync(0));
      await act(() => result.current.login('+237650000001', 'correct horse'));
      expect(result.current.status).toBe('otp-sent');
      expect(result.current.error).toMatchObject({ code: 'otp_rate_limited', retryAfter: 11 });
      await act(() => vi.advanceTimersByTimeAsync(1000));
      expect(result.current.error?.retryAfter).toBe(10);
      await act(() => vi.advanceTimersByTimeAsync(1000));
      expect(result.current.error?.retryAfter).toBe(9);
      // Once the wait is over there is nothing more to say, and a new code may be asked for.
      await act(() => vi.advanceTimersByTimeAsync(9000));
      expect(result.current.error).toBeUndefined();
      // The code sent before is the one to type.
      await act(() => result.current.verifyCode('123456'));
      expect(result.current.status).toBe('otp-verified');
    } finally {
      vi.useRealTimers();
    }
  });

  it('an intent PROCESSING is waited for with the client long-poll until it settles, then no more', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const gateway = fakeGateway({ status: 'PROCESSING' });
      const { result } = setup(gateway);
      await act(() => vi.advanceTimersByTimeAsync(0));
      expect(result.current.status).toBe('charging');
      // The page's read, then the wait's: a long-poll first (this server answers it at once, so
      // the client reads it again after its backoff instead of every 3 s).
      expect(gateway.state.sessionReads.slice(0, 2)).toEqual(['', '?status=PROCESSING&wait=25']);
      await act(() => vi.advanceTimersByTimeAsync(1000));
      expect(gateway.state.sessionReads).toHaveLength(3);
      expect(result.current.status).toBe('charging');
      gateway.state.intent = { ...gateway.state.intent, status: 'SUCCEEDED' };
      await act(() => vi.advanceTimersByTimeAsync(1500));
      expect(result.current.status).toBe('succeeded');
      const settled = gateway.state.sessionReads.length;
      await act(() => vi.advanceTimersByTimeAsync(30_000));
      expect(gateway.state.sessionReads).toHaveLength(settled);
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs its waits on the timers and clock it is given', async () => {
    const pending: (() => void)[] = [];
    let clock = Date.now();
    const timers = { setTimeout: (run: () => void) => pending.push(run), clearTimeout: () => undefined };
    const gateway = fakeGateway();
    gateway.state.tooMany.set('/otp/init', { code: 'otp_rate_limited', retryAfter: 3 });
    const wrapper = ({ children }: { children?: ReactNode }) => (
      <CaisseProvider apiKey="pk_test_abcdefghijklmnopqrstuvwx" clientSecret="ps_good" client={gateway.client}>
        {children}
      </CaisseProvider>
    );
    const { result } = renderHook(() => useCheckout({ timers, now: () => clock }), { wrapper });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    await act(() => result.current.login('+237650000001', 'correct horse'));
    expect(result.current.error?.retryAfter).toBe(3);
    clock += 2000;
    // Fire the countdown's tick (the last timer set), as the given timers would.
    await act(async () => pending.pop()?.());
    expect(result.current.error?.retryAfter).toBe(1);
  });

  it('must be used inside <CaisseProvider>', () => {
    expect(() => renderHook(() => useCheckout())).toThrow(/CaisseProvider/);
  });
});
