import type { OtpChannel } from '@caisse/browser';
import { useCallback } from 'react';
import type { Checkout, CheckoutRuntime } from './checkoutController.ts';
import { normalizePhone } from './checkoutMachine.ts';

/**
 * "Forgot password?": the number, the reset code sent by SMS and the new password; once set, the
 * customer is signed in with it (`signIn`) and the payment goes on.
 */
export function usePasswordReset(
  { client, current, generation, send, onError }: CheckoutRuntime,
  signIn: (gen: number, phoneNumber: string, password: string, channel: OtpChannel | undefined) => Promise<void>,
): Pick<Checkout, 'forgotPassword' | 'requestPasswordReset' | 'confirmPasswordReset' | 'cancelPasswordReset'> {
  const forgotPassword = useCallback(
    (phoneNumber?: string) => {
      const typed = phoneNumber === undefined ? '' : normalizePhone(phoneNumber);
      send(generation.current, { type: 'reset.opened', ...(typed ? { phoneNumber: typed } : {}) });
    },
    [send],
  );

  const requestPasswordReset = useCallback(
    async (phoneNumber?: string) => {
      const s = current.current;
      const number = normalizePhone(phoneNumber ?? s.phoneNumber ?? '');
      const gen = generation.current;
      if (!send(gen, { type: 'reset.requested', phoneNumber: number })) return;
      try {
        const reset = await client.requestPasswordReset(number);
        send(gen, { type: 'reset.sent', reset });
      } catch (err) {
        await onError(gen, err, s.status);
      }
    },
    [client, onError, send],
  );

  const confirmPasswordReset = useCallback(
    async (code: string, newPassword: string, channel?: OtpChannel) => {
      const s = current.current;
      const phoneNumber = s.reset?.phoneNumber ?? s.phoneNumber;
      const gen = generation.current;
      if (phoneNumber === undefined || !send(gen, { type: 'reset.confirmRequested' })) return;
      try {
        await client.confirmPasswordReset({ phoneNumber, code: code.trim(), newPassword });
      } catch (err) {
        return onError(gen, err, 'reset-code');
      }
      send(gen, { type: 'reset.confirmed' });
      await signIn(gen, phoneNumber, newPassword, channel);
    },
    [client, onError, signIn, send],
  );

  const cancelPasswordReset = useCallback(() => void send(generation.current, { type: 'reset.canceled' }), [send]);
  return { forgotPassword, requestPasswordReset, confirmPasswordReset, cancelPasswordReset };
}
