import type { Language } from '../../platform/i18n.ts';
import type { Currency } from '../../platform/money.ts';
import type { KeyMode } from '../../platform/tenancy.ts';
import type { UserRow } from './users.repository.ts';

export interface UserView {
  id: string;
  object: 'user';
  phoneNumber: string;
  email: string | null;
  phoneVerified: boolean;
  /** The language of the customer's messages; null: none chosen yet. */
  language: Language | null;
  livemode: boolean;
  createdAt: string;
}

export interface AuthResult {
  id: string;
  token: string;
  phoneNumber: string;
  roles: string[];
  expiresAt: string;
  /** The customer's saved language, for the checkout to follow; null: none. */
  language: Language | null;
}

/**
 * What the publishable-key routes about a phone number answer, known number or not (docs/spec/customers.md):
 * the same status and shape, and no customer data. What differs goes by SMS to the number.
 */
export interface CodeSent<Kind extends 'phone_verification' | 'password_reset' = 'phone_verification', Phone extends string | null = string> {
  object: Kind;
  phoneNumber: Phone;
  channel: 'sms';
  expiresAt: string;
}

export function userView(u: UserRow): UserView {
  return {
    id: u.id,
    object: 'user',
    phoneNumber: u.phone_number,
    email: u.email,
    phoneVerified: u.phone_verified_at !== null,
    language: u.language,
    livemode: u.mode === 'live',
    createdAt: u.created_at.toISOString(),
  };
}

/** A top-up credited to a customer's wallet (the topups module tells, once, after the commit). */
export interface TopupCredited {
  merchantId: string;
  mode: KeyMode;
  userId: string;
  amount: bigint;
  currency: Currency;
  /** The provider as people know it ("MTN MoMo"). */
  providerName: string;
}
