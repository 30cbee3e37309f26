import { MINUTE } from '../../platform/clock.ts';
import { codeMatches, generateCode, hashCode } from '../../platform/codes.ts';
import { randomToken, sha256 } from '../../platform/crypto.ts';
import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import { type Language, translator } from '../../platform/i18n.ts';
import type { KeyMode } from '../../platform/tenancy.ts';
import type { Throttle } from '../../platform/throttle.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { MessageSender } from '../messaging/index.ts';
import { CODE_MINUTES, codeRule, incorrect, subject, type UserMessages } from './users.messages.ts';
import { assertPhoneNumber } from './users.policy.ts';
import { usersRepository as repo } from './users.repository.ts';
import type { PasswordCheck } from './users.signin.ts';

/** How long a session of the customer's account page lasts. */
export const ACCOUNT_SESSION_MS = 30 * MINUTE;
/** How many movements the account page shows. */
const ACCOUNT_MOVEMENTS = 100;

/**
 * The customer's own account page (`/account`), signed in there and not through a merchant:
 * the password, then a code by SMS (the same two steps as paying), then a session of its own.
 */
export function createCustomerAccount(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'random'>,
  shared: { throttle: Throttle; check: PasswordCheck; messages: Pick<UserMessages, 'codeExpiry'> },
  collaborators: {
    messaging: MessageSender;
    ledger: Pick<LedgerService, 'wallet'>;
    /** A merchant's name, for the customer's own account page (the merchants module's). */
    merchantName?: (merchantId: string) => Promise<string | undefined>;
  },
) {
  const { db, clock, config, random } = deps;
  const { throttle } = shared;
  const { checkPassword } = shared.check;
  const { codeExpiry } = shared.messages;
  const { messaging, ledger } = collaborators;
  return {
    /** The password is right: a sign-in code goes by SMS, in the customer's language (else the page's). */
    async sendCode(mode: KeyMode, input: { phoneNumber: string; password: string }, address: string, requested: readonly string[]): Promise<void> {
      const user = await checkPassword(mode, undefined, input, address);
      await throttle.send(subject('send:account', mode, user.phone_number));
      const code = generateCode(random);
      await repo.saveReset(
        db,
        { user_id: user.id, code_hash: hashCode(config.masterKey, `account:${user.id}`, code), expires_at: codeExpiry(), created_at: clock.now() },
        'account_codes',
      );
      await throttle.clear(subject('account', mode, user.phone_number));
      const t = translator({ saved: user.language, requested });
      try {
        await messaging.send({
          merchantId: null,
          mode,
          userId: user.id,
          channel: 'sms',
          to: user.phone_number,
          body: t.text('users.accountCode', { code, minutes: CODE_MINUTES }),
          subject: t.text('users.accountCodeSubject'),
          code,
        });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
      }
    },

    /** The code: a new session (its token, shown once, for the cookie), or 400 `otp_incorrect`. */
    async confirm(mode: KeyMode, input: { phoneNumber: string; code: string }): Promise<{ token: string; expiresAt: Date }> {
      const phoneNumber = assertPhoneNumber(input.phoneNumber, undefined);
      const attempt = await throttle.begin(subject('account', mode, phoneNumber), codeRule('the sign-in form'));
      const user = await repo.findUserByPhone(db, mode, phoneNumber);
      const token = randomToken(random, 32);
      const expiresAt = new Date(clock.now().getTime() + ACCOUNT_SESSION_MS);
      const done = user
        ? await db.transaction().execute(async (tx) => {
            const row = await repo.lockReset(tx, user.id, 'account_codes');
            if (!row || row.expires_at <= clock.now() || !codeMatches(config.masterKey, `account:${user.id}`, input.code, row.code_hash)) return false;
            await repo.deleteReset(tx, user.id, 'account_codes');
            await repo.insertAccountSession(tx, {
              token_hash: sha256(token),
              user_id: user.id,
              mode,
              token_version: user.token_version,
              created_at: clock.now(),
              expires_at: expiresAt,
            });
            return true;
          })
        : false;
      if (!done) throw incorrect(attempt.remaining);
      await attempt.succeeded();
      return { token, expiresAt };
    },

    /** The session's customer, or undefined (unknown, expired, or the password changed since). */
    async session(mode: KeyMode, token: string | undefined): Promise<{ userId: string; language: Language | null } | undefined> {
      if (token === undefined || token.length > 100) return undefined;
      const row = await repo.findAccountSession(db, sha256(token), mode, clock.now());
      if (!row || row.token_version !== row.current_version) return undefined;
      return { userId: row.user_id, language: row.language };
    },

    signOut: (token: string) => repo.deleteAccountSession(db, sha256(token)),

    /** Deletes up to `limit` expired sessions and sign-in codes of the account page (retention); how many. */
    purgeExpired: (now: Date, limit: number) => repo.purgeExpiredAccountRows(db, now, limit),

    /** Every balance and the latest movements across every merchant, each with its merchant's name. */
    async history(mode: KeyMode, userId: string) {
      const wallet = await ledger.wallet({ userId, mode }, db, ACCOUNT_MOVEMENTS);
      const names = new Map<string, string>();
      for (const id of new Set(wallet.movements.map((m) => m.merchantId))) names.set(id, (await collaborators.merchantName?.(id)) ?? id);
      return { balances: wallet.balances, movements: wallet.movements.map((m) => ({ ...m, merchantName: names.get(m.merchantId) ?? m.merchantId })) };
    },
  };
}
