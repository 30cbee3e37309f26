import { useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';
import type { AccountSecurity, AccountSessionEntry, Answer, TotpEnrolment } from '../types.ts';
import { get, useChange } from './client.ts';
import { keys } from './keys.ts';

type RecoveryCodes = Answer<'/dashboard/api/account/totp/recovery-codes', 'post'>;
/** What proves it is the user: an authenticator code, or the password. */
type Proof = { code: string } | { password: string };

/** The signed-in user's two-step state (on or off, codes left). */
export function useAccountSecurity() {
  return useQuery({ queryKey: keys.account.security(), queryFn: () => get<AccountSecurity>('/account/security') });
}

/** Where the user is signed in. */
export function useAccountSessions() {
  return useQuery({ queryKey: keys.account.sessions(), queryFn: () => get<{ data: AccountSessionEntry[] }>('/account/sessions') });
}

/** A new password signs the user out everywhere else. */
export function useChangePassword() {
  return useChange(
    (body: { currentPassword: string; newPassword: string }) => api('POST', '/account/password', body),
    () => [keys.account.sessions()],
  );
}

/** Starts enrolling an authenticator; nothing changes until the code is confirmed. */
export function useStartTotp() {
  return useChange(
    () => api<TotpEnrolment>('POST', '/account/totp'),
    () => [],
  );
}

export function useConfirmTotp() {
  return useChange(
    (code: string) => api<RecoveryCodes>('POST', '/account/totp/confirm', { code }),
    () => [keys.account.security()],
  );
}

export function useNewRecoveryCodes() {
  return useChange(
    (proof: Proof) => api<RecoveryCodes>('POST', '/account/totp/recovery-codes', proof),
    () => [keys.account.security()],
  );
}

export function useDisableTotp() {
  return useChange(
    (proof: Proof) => api('POST', '/account/totp/disable', proof),
    () => [keys.account.security()],
  );
}

/** Signs one other session out. */
export function useRevokeSession() {
  return useChange(
    (id: string) => api('DELETE', `/account/sessions/${encodeURIComponent(id)}`),
    () => [keys.account.sessions()],
  );
}

export function useRevokeOtherSessions() {
  return useChange(
    () => api<Answer<'/dashboard/api/account/sessions/revoke-others', 'post'>>('POST', '/account/sessions/revoke-others'),
    () => [keys.account.sessions()],
  );
}
