import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CaisseProvider, type CheckoutStatus, useCheckout } from '../src/index.ts';
import { fakeGateway } from './fake-gateway.ts';

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

  it('a declined charge is failed; retry sends a new code while the intent takes attempts', async () => {
    const gateway = fakeGateway({ balance: 100 });
    const { result } = setup(gateway);
    await verifiedCustomer(result);
    await act(() => result.current.pay());
    expect(result.current.status).toBe('failed');
    expect(result.current.error?.code).toBe('insufficient_funds');
    expect(result.current.canRetry).toBe(true);

    gateway.state.balance = 10_000;
    await act(() => result.current.retry());
    expect(result.current.status).toBe('otp-sent');
    await act(() => result.current.verifyCode('123456'));
    await act(() => result.current.pay());
    expect(result.current.status).toBe('succeeded');
  });

  it('after the last attempt the intent is FAILED and retry is not offered', async () => {
    const gateway = fakeGateway({ balance: 0 });
    gateway.state.intent = { ...gateway.state.intent, attempts: 2 };
    const { result } = setup(gateway);
    await verifiedCustomer(result);
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

  it('must be used inside <CaisseProvider>', () => {
    expect(() => renderHook(() => useCheckout())).toThrow(/CaisseProvider/);
  });
});
