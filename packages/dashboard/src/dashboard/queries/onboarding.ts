import { useMutation, useQuery } from '@tanstack/react-query';
import { api, upload } from '../api.ts';
import type { BusinessProfile, EmailVerified, ProfileDetails, SignUpRequested } from '../types.ts';
import { get, useChange } from './client.ts';
import { keys } from './keys.ts';

/** Asks to sign a business up (no session: the account exists once the e-mail's link is opened). */
export function useSignUp() {
  return useMutation({
    mutationFn: (body: { businessName: string; country: string; email: string; password: string; language: string }) =>
      api<SignUpRequested>('POST', '/sign-up', body),
  });
}

/** A fresh verification link (the same answer whoever owns the address). */
export function useResendVerification() {
  return useMutation({ mutationFn: (email: string) => api<unknown>('POST', '/sign-up/resend', { email }) });
}

export function useVerifyEmail() {
  return useMutation({ mutationFn: (token: string) => api<EmailVerified>('POST', '/sign-up/verify', { token }) });
}

/** The business profile and its review state. */
export function useProfile() {
  return useQuery({ queryKey: keys.profile(), queryFn: () => get<BusinessProfile>('/profile') });
}

const profileChanged = () => [keys.profile()];

export function useUpdateProfile() {
  return useChange((details: Partial<ProfileDetails>) => api<BusinessProfile>('PATCH', '/profile', details), profileChanged);
}

export function useUploadDocument() {
  return useChange((file: File) => upload<BusinessProfile>('/profile/document', file), profileChanged);
}

export function useSubmitProfile() {
  return useChange((_: void) => api<BusinessProfile>('POST', '/profile/submit', {}), profileChanged);
}
