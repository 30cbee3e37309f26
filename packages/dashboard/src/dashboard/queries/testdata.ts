import { useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';
import type { Balance, List, Message, Mode, TestUser } from '../types.ts';
import { get, useChange } from './client.ts';
import { keys } from './keys.ts';

/** The last 50 messages the test mode "sent" (texts, emails) in place of real ones. */
export function useTestMessages() {
  return useQuery({ queryKey: keys.testMessages(), queryFn: () => get<List<Message>>('/test/messages?limit=50') });
}

/** A test mobile money user; nothing the dashboard caches lists them. */
export function useCreateTestUser() {
  return useChange(
    (body: { phoneNumber: string; password: string; email?: string; balance: string; currency: string }) => api<TestUser>('POST', '/test/test-users', body),
    () => [],
  );
}

/** "Settle now": the test mode's pending money available at once; the balance and its statement change. */
export function useSettleTestBalance(mode: Mode) {
  return useChange(
    () => api<Balance>('POST', `/${mode}/balance/settle`),
    () => [keys.balance.all(mode)],
  );
}
