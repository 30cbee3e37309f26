import type { Deps } from '../../platform/deps.ts';
import { createThrottle } from '../../platform/throttle.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { MessageSender } from '../messaging/index.ts';
import { createCustomerAccount } from './users.account.ts';
import { createCustomerDirectory } from './users.customers.ts';
import { createCustomerOwn } from './users.me.ts';
import { createUserMessages } from './users.messages.ts';
import { createOperatorSupport } from './users.operator.ts';
import { createPasswords } from './users.passwords.ts';
import { createUserRecords } from './users.records.ts';
import { createRegistration } from './users.registration.ts';
import { usersRepository as repo } from './users.repository.ts';
import { createPasswordCheck, createSignIn } from './users.signin.ts';
import { createTestCustomers } from './users.testing.ts';
import { createTokenService } from './users.tokens.ts';
import { createVersionCache } from './users.versions.ts';

/**
 * Customers (docs/spec/customers.md): one account per mode and phone number across the deployment, one
 * password, one wallet per currency. A merchant sees a customer once linked to it (registration
 * through its key, its test helpers, a payment attempt of one of its intents). Each use case is
 * its own file, built here once with what it uses.
 */
export function createUsersService(
  deps: Deps,
  collaborators: {
    messaging: MessageSender;
    ledger: LedgerService;
    /** A merchant's default language, for messages sent outside a request (the merchants module's). */
    merchantLanguage?: (merchantId: string) => Promise<string | undefined>;
    /** A merchant's name, for the customer's own account page (the merchants module's). */
    merchantName?: (merchantId: string) => Promise<string | undefined>;
  },
) {
  const throttle = createThrottle(deps);
  const { messaging, ledger } = collaborators;
  const versions = createVersionCache(deps, (userId) => repo.tokenVersion(deps.db, userId));
  const tokens = createTokenService(deps, versions.current);
  const messages = createUserMessages(deps, throttle, messaging);
  const records = createUserRecords(deps, ledger);
  const check = createPasswordCheck(deps, throttle);
  return {
    ...createSignIn(check, tokens),
    ...createRegistration(deps, { throttle, messages, records }),
    ...createPasswords(deps, { throttle, messages, versions }),
    ...createCustomerOwn(deps, { messages }, collaborators),
    ...createOperatorSupport(deps, { throttle, messages, versions }, collaborators),
    ...createCustomerDirectory(deps, records),
    ...createTestCustomers(deps, records, ledger),
    account: createCustomerAccount(deps, { throttle, check, messages }, collaborators),
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
