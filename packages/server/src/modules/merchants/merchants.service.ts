import { ApiError, merchantFrozen } from '../../platform/errors.ts';
import { randomToken } from '../../platform/crypto.ts';
import type { Deps } from '../../platform/deps.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { type KeyMode, type ReserveTerms } from '../../platform/tenancy.ts';
import type { Executor, Tx } from '../../platform/db.ts';
import type { Language } from '../../platform/i18n.ts';
import type { Country } from '../../platform/countries.ts';
import { merchantsRepository as repo } from './merchants.repository.ts';
import { accountsRepository as accounts } from './accounts.repository.ts';
import { createKeysService, reserveTerms } from './merchants.keys.ts';
import { createTeamService } from './merchants.team.ts';
import { checkShortName, deriveShortName, effectiveShortName } from './merchants.shortname.ts';

/** A merchant in the operator console's list. */
export interface MerchantSummary {
  id: string;
  name: string;
  email: string | null;
  country: Country;
  frozen: boolean;
  createdAt: string;
}

/** A merchant's page in the operator console (balances come from the ledger). */
export interface MerchantProfile {
  id: string;
  name: string;
  email: string | null;
  country: Country;
  language: Language;
  fees: { bps: number | null; fixedMinor: Record<string, number | string> | null };
  settlementDelayDays: number | null;
  reserve: ReserveTerms | null;
  /** Usable keys (not revoked, not past a roll's grace) per mode. */
  keys: { test: number; live: number };
  frozen: { at: string; reason: string } | null;
  createdAt: string;
}

/** Whether a merchant is frozen, as the operator audit log records it before and after. */
export type FreezeState = { frozen: false } | { frozen: true; frozenAt: string; reason: string };

/** A merchant's commercial terms as the operator sets them (null: the configured default, or no reserve). */
export interface MerchantTerms {
  fees: { bps: number; fixedMinor: Record<string, string> } | null;
  settlementDelayDays: number | null;
  reserve: ReserveTerms | null;
}

/** What `setTerms` changes: a field left out keeps its value. */
export interface TermsPatch {
  fees?: { bps: number; fixedMinor: Record<string, bigint> } | null;
  settlementDelayDays?: number | null;
  reserve?: ReserveTerms | null;
}

function termsOf(row: {
  fee_bps: number | null;
  fee_fixed: Record<string, string | number> | null;
  settlement_delay_days: number | null;
  reserve_bps: number | null;
  reserve_days: number | null;
}): MerchantTerms {
  return {
    // Older rows hold the fixed parts as JSON numbers.
    fees:
      row.fee_bps === null ? null : { bps: row.fee_bps, fixedMinor: Object.fromEntries(Object.entries(row.fee_fixed ?? {}).map(([c, v]) => [c, String(v)])) },
    settlementDelayDays: row.settlement_delay_days,
    reserve: reserveTerms(row.reserve_bps, row.reserve_days),
  };
}

function assertFeeBps(bps: number): void {
  if (!Number.isInteger(bps) || bps < 0 || bps > 10_000)
    throw new ApiError('validation_error', 'The percentage must be from 0 to 100 with at most 2 decimals', { param: 'percent' });
}

function assertSettlementDelay(days: number): void {
  if (!Number.isInteger(days) || days < 0 || days > 365)
    throw new ApiError('validation_error', 'The delay is a whole number of days from 0 to 365', { param: 'delayDays' });
}

function assertReserve(reserve: ReserveTerms | null): void {
  if (
    reserve !== null &&
    (!Number.isInteger(reserve.bps) || reserve.bps < 1 || reserve.bps > 10_000 || !Number.isInteger(reserve.days) || reserve.days < 1 || reserve.days > 365)
  ) {
    throw new ApiError('validation_error', 'The reserve is 0.01 to 100 percent, held 1 to 365 days', { param: 'reserve' });
  }
}

export function createMerchantsService(deps: Deps) {
  const { db, clock, random, ids } = deps;
  const keys = createKeysService(deps);
  const { dropCachedKeys: _drop, forgetCachedKey: _forget, ...keyMethods } = keys;
  const createKey = keys.createKey;

  /** Whether an operator froze the merchant (what runs without an API key asks: the payout scheduler). */
  async function isFrozen(merchantId: string, executor: Executor = db): Promise<boolean> {
    const row = await repo.findMerchant(executor, merchantId);
    return row?.frozen_at != null;
  }

  /** Whether an operator approved the merchant for live mode (what acts without a key or a session asks: payouts, their scheduler). */
  async function isApproved(merchantId: string, executor: Executor = db): Promise<boolean> {
    const row = await repo.findMerchant(executor, merchantId);
    return row?.approved_at != null;
  }

  return {
    // Keys and team are their own files; the module's service stays one object for its callers.
    ...keyMethods,
    ...createTeamService(deps),

    /**
     * A merchant with a test publishable key, a test secret key and a dashboard login.
     * Live keys are created on purpose, later, with `keys create --mode live`. Approved for live
     * mode at once (operators onboard the CLI's merchants offline), unless `approved` is false: a
     * merchant that signed up itself waits for an operator's review. `within` runs in the same
     * transaction.
     */
    async createMerchant(
      input: {
        name: string;
        email?: string;
        dashboardPassword?: string;
        /** The owner's password already hashed (sign-up): no password is made. */
        passwordHash?: string;
        language?: Language;
        country?: Country;
        approved?: boolean;
      },
      within?: (tx: Tx, merchantId: string) => Promise<void>,
    ) {
      const email =
        input.email ??
        `${
          input.name
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, '-')
            .replace(/^-|-$/g, '') || 'merchant'
        }@caisse.local`;
      // A second merchant named alike derives the same e-mail: say so, rather than fail on the index.
      if (await repo.findDashboardUserByEmail(db, email)) {
        throw new ApiError('already_exists', `${email} already has a dashboard account: give the merchant another e-mail (--email)`, { param: 'email' });
      }
      const password = input.passwordHash === undefined ? (input.dashboardPassword ?? randomToken(random, 12)) : '';
      const passwordHash = input.passwordHash ?? (await hashPassword(password));
      return db.transaction().execute(async (tx) => {
        const now = clock.now();
        const merchant = await repo.insertMerchant(tx, {
          id: ids('merchant'),
          name: input.name,
          email,
          language: input.language,
          country: input.country,
          created_at: now,
          approved_at: input.approved === false ? null : now,
        });
        const apiKey = await createKey(merchant.id, { kind: 'publishable', mode: 'test', name: 'Default test key' }, tx);
        const secretKey = await createKey(merchant.id, { kind: 'secret', mode: 'test', name: 'Default test secret key' }, tx);
        await repo.insertDashboardUser(tx, { id: ids('dashboardUser'), merchant_id: merchant.id, email, password_hash: passwordHash, created_at: now });
        await within?.(tx, merchant.id);
        return {
          merchantId: merchant.id,
          test: { apiKey: apiKey.secret, secretKey: secretKey.secret },
          dashboard: { email, password },
        };
      });
    },

    /**
     * Sets the merchant's fee schedule (`caisse merchants fees`): a percentage in basis points and
     * a fixed part per currency in minor units. Keys cached by any process pick it up within the
     * key cache's life; the broadcast drops them at once.
     */
    async setFees(merchantId: string, bps: number, fixedMinor: Record<string, bigint>): Promise<void> {
      assertFeeBps(bps);
      const fixed = Object.fromEntries(Object.entries(fixedMinor).map(([c, v]) => [c, v.toString()]));
      if (!(await repo.setFees(db, merchantId, bps, fixed))) throw new ApiError('not_found', `No merchant ${merchantId}`);
      await keys.dropCachedKeys();
    },

    /**
     * Sets the merchant's default language (`caisse merchants language`): its customers' messages
     * use it when they chose none and their request named none. Cached keys carry
     * it, so they are dropped as for fees.
     */
    async setLanguage(merchantId: string, language: Language): Promise<void> {
      if (!(await repo.setLanguage(db, merchantId, language))) throw new ApiError('not_found', `No merchant ${merchantId}`);
      await keys.dropCachedKeys();
    },

    /**
     * Sets how many days a charge's net stays pending (`caisse merchants settlement`; 0: available
     * within seconds). It applies to charges made from then on.
     */
    async setSettlementDelay(merchantId: string, days: number): Promise<void> {
      assertSettlementDelay(days);
      if (!(await repo.setSettlementDelay(db, merchantId, days))) throw new ApiError('not_found', `No merchant ${merchantId}`);
      await keys.dropCachedKeys();
    },

    /**
     * Sets the merchant's rolling reserve (`caisse merchants reserve`; null: off): from then on
     * each charge holds `bps` of its net for `days` days. Holds already made keep their terms.
     */
    async setReserve(merchantId: string, reserve: ReserveTerms | null): Promise<void> {
      assertReserve(reserve);
      if (!(await repo.setReserve(db, merchantId, reserve))) throw new ApiError('not_found', `No merchant ${merchantId}`);
      await keys.dropCachedKeys();
    },

    /**
     * Sets some of a merchant's commercial terms at once (the operator console): fees, settlement
     * delay, rolling reserve; a field left out keeps its value, null goes back to the default (off
     * for the reserve). `within` runs in the same transaction with the terms before and after (the
     * operator's audit entry); cached keys are dropped after the commit, as for `setFees`.
     */
    async setTerms(
      merchantId: string,
      patch: TermsPatch,
      within: (tx: Tx, before: MerchantTerms, after: MerchantTerms) => Promise<void>,
    ): Promise<MerchantTerms> {
      if (patch.fees) assertFeeBps(patch.fees.bps);
      if (patch.settlementDelayDays !== undefined && patch.settlementDelayDays !== null) assertSettlementDelay(patch.settlementDelayDays);
      if (patch.reserve !== undefined) assertReserve(patch.reserve);
      const after = await db.transaction().execute(async (tx) => {
        const row = await repo.findMerchant(tx, merchantId, { forUpdate: true });
        if (!row) throw new ApiError('not_found', `No merchant ${merchantId}`, { param: 'id' });
        const before = termsOf(row);
        if (patch.fees !== undefined) {
          const fixed = patch.fees && Object.fromEntries(Object.entries(patch.fees.fixedMinor).map(([c, v]) => [c, v.toString()]));
          await repo.setFees(tx, merchantId, patch.fees?.bps ?? null, fixed);
        }
        if (patch.settlementDelayDays !== undefined) await repo.setSettlementDelay(tx, merchantId, patch.settlementDelayDays);
        if (patch.reserve !== undefined) await repo.setReserve(tx, merchantId, patch.reserve);
        const changed = termsOf((await repo.findMerchant(tx, merchantId)) ?? row);
        await within(tx, before, changed);
        return changed;
      });
      await keys.dropCachedKeys();
      return after;
    },

    /**
     * Sets the merchant's country (`caisse merchants country`, the dashboard's settings): from then
     * on its checkout offers that country's providers and currency, and national phone numbers
     * are read in it (cached keys carry it, so they are dropped). Intents already created keep
     * their currency.
     */
    async setCountry(merchantId: string, country: Country): Promise<void> {
      if (!(await repo.setCountry(db, merchantId, country))) throw new ApiError('not_found', `No merchant ${merchantId}`);
      await keys.dropCachedKeys();
    },

    /**
     * The payer-facing short name: `name` the one sent, `custom` whether the merchant chose it,
     * `default` what it is without a choice (from the trade name, else the merchant's name).
     */
    async shortName(merchantId: string, executor: Executor = db): Promise<{ name: string; custom: boolean; default: string }> {
      const row = await repo.findMerchant(executor, merchantId);
      if (!row) throw new ApiError('not_found', `No merchant ${merchantId}`);
      return { name: effectiveShortName(row), custom: row.short_name !== null, default: effectiveShortName({ ...row, short_name: null }) };
    },

    /** The name the merchant chose (400 `short_name_invalid` unless 4 to 22 ASCII letters, digits, spaces); null: back to the default. */
    async setShortName(merchantId: string, name: string | null): Promise<void> {
      const value = name === null ? null : checkShortName(name);
      if (!(await repo.setShortName(db, merchantId, { short_name: value }))) throw new ApiError('not_found', `No merchant ${merchantId}`);
    },

    /** The default from the business profile's trade name (the onboarding module, when the profile is saved). */
    async setShortNameFrom(merchantId: string, tradeName: string, executor: Executor = db): Promise<void> {
      await repo.setShortName(executor, merchantId, { short_name_default: deriveShortName(tradeName) ?? null });
    },

    /** The dashboard user's own language (null: back to the browser's, then the merchant's). */
    setDashboardLanguage: (dashboardUserId: string, language: Language | null) => repo.setDashboardUserLanguage(db, dashboardUserId, language),

    /** How many merchants there are (`npm start` creates one on an empty database). */
    countMerchants: () => repo.countMerchants(db),

    /** The first `limit` merchants, oldest first (`caisse merchants list`, the start banner). */
    /** Merchants by id, name or e-mail (the operator console's search), newest first. */
    async searchMerchants(text: string, limit: number): Promise<MerchantSummary[]> {
      return (await repo.searchMerchants(db, text, limit)).map((m) => ({
        id: m.id,
        name: m.name,
        email: m.email,
        country: m.country,
        frozen: m.frozen_at !== null,
        createdAt: m.created_at.toISOString(),
      }));
    },

    /** What the operator console shows of a merchant; undefined when there is no such merchant. */
    async merchantProfile(merchantId: string): Promise<MerchantProfile | undefined> {
      const row = await repo.findMerchant(db, merchantId);
      if (!row) return undefined;
      const counts = await repo.countKeys(db, merchantId, clock.now());
      const keysOf = (mode: KeyMode) => Number(counts.find((c) => c.mode === mode)?.n ?? 0);
      return {
        id: row.id,
        name: row.name,
        email: row.email,
        country: row.country,
        language: row.language,
        fees: { bps: row.fee_bps, fixedMinor: row.fee_fixed },
        settlementDelayDays: row.settlement_delay_days,
        reserve: reserveTerms(row.reserve_bps, row.reserve_days),
        keys: { test: keysOf('test'), live: keysOf('live') },
        frozen: row.frozen_at === null ? null : { at: row.frozen_at.toISOString(), reason: row.frozen_reason ?? '' },
        createdAt: row.created_at.toISOString(),
      };
    },

    /**
     * Freezes a merchant (`frozen` with its reason) or unfreezes it (null). `within` runs in the
     * same transaction with the state before and after (the operator's audit entry). Every
     * process drops its cached keys at once, as for a revoked key: the next call sees it.
     */
    async setFrozen(
      merchantId: string,
      frozen: { reason: string } | null,
      within: (tx: Tx, before: FreezeState, after: FreezeState) => Promise<void>,
    ): Promise<{ before: FreezeState; after: FreezeState }> {
      const changed = await db.transaction().execute(async (tx) => {
        const now = clock.now();
        const old = await repo.setFrozen(tx, merchantId, frozen && { at: now, reason: frozen.reason });
        if (!old) throw new ApiError('not_found', `No merchant ${merchantId}`, { param: 'id' });
        const before: FreezeState =
          old.frozen_at === null ? { frozen: false } : { frozen: true, frozenAt: old.frozen_at.toISOString(), reason: old.frozen_reason ?? '' };
        const after: FreezeState = frozen === null ? { frozen: false } : { frozen: true, frozenAt: now.toISOString(), reason: frozen.reason };
        await within(tx, before, after);
        return { before, after };
      });
      await keys.dropCachedKeys();
      return changed;
    },

    /**
     * Approves the merchant for live mode (at `at`) or withdraws it (null), in the caller's
     * transaction. Its keys' cached rows are dropped so every process sees it.
     */
    async setApproved(tx: Executor, merchantId: string, at: Date | null): Promise<void> {
      await repo.setApproved(tx, merchantId, at);
      for (const key of await repo.listKeys(tx, merchantId)) keys.forgetCachedKey(key.id);
    },

    /** 403 `merchant_frozen` for a frozen merchant (what reaches a service without an API key: the dashboard). */
    async assertNotFrozen(merchantId: string): Promise<void> {
      if (await isFrozen(merchantId)) throw merchantFrozen();
    },

    isFrozen,
    /** The merchant's country (what chooses its provider accounts), read in `executor`; undefined when there is no such merchant. */
    countryOf: async (merchantId: string, executor: Executor = db): Promise<Country | undefined> => (await repo.findMerchant(executor, merchantId))?.country,
    isApproved,

    async listMerchants(limit = 100): Promise<{ id: string; name: string; email: string | null; createdAt: string }[]> {
      return (await repo.listMerchants(db, limit)).map((m) => ({ id: m.id, name: m.name, email: m.email, createdAt: m.created_at.toISOString() }));
    },

    /** A merchant's name, pinned API version, language, country and intents' default validity; undefined when there is no such merchant. */
    async findMerchant(merchantId: string): Promise<
      | {
          id: string;
          name: string;
          email: string | null;
          pinnedVersion: string;
          language: Language;
          country: Country;
          intentExpiresIn: number;
          frozen: boolean;
          approved: boolean;
        }
      | undefined
    > {
      const row = await repo.findMerchant(db, merchantId);
      return (
        row && {
          id: row.id,
          name: row.name,
          email: row.email,
          pinnedVersion: row.api_version,
          language: row.language,
          country: row.country,
          intentExpiresIn: row.intent_expires_in,
          frozen: row.frozen_at !== null,
          approved: row.approved_at !== null,
        }
      );
    },

    /** What settling a payment outside a request needs of a merchant: fees, settlement delay, pinned version. */
    async paymentTerms(
      merchantId: string,
      executor: Executor = db,
    ): Promise<{
      pinnedVersion: string;
      fees: { bps: number | null; fixedMinor: Record<string, number | string> | null };
      settlementDelayDays: number | null;
      reserve: ReserveTerms | null;
    }> {
      const row = await repo.findMerchant(executor, merchantId);
      if (!row) throw new Error(`no merchant ${merchantId}`);
      return {
        pinnedVersion: row.api_version,
        fees: { bps: row.fee_bps, fixedMinor: row.fee_fixed },
        settlementDelayDays: row.settlement_delay_days,
        reserve: reserveTerms(row.reserve_bps, row.reserve_days),
      };
    },

    /** The pinned API version of each of these merchants (in the caller's transaction when given). */
    pinnedVersions: (ids: readonly string[], executor: Executor = db) => repo.pinnedVersions(executor, ids),

    /** A dashboard account by e-mail (lower case), with its password hash to check and its merchant. */
    findDashboardAccountByEmail: (email: string) => repo.findDashboardUserByEmail(db, email),

    /** A dashboard account by id, with its merchant's name and pinned version (no password hash). */
    findDashboardAccount: (id: string) => repo.findDashboardUser(db, id),

    /**
     * A dashboard user's credentials (password hash, encrypted TOTP secret, recovery codes, reset
     * links): the dashboard module's account security works through these, in its transaction
     * when it passes one.
     */
    dashboardCredentials: {
      find: (id: string, executor: Executor = db) => accounts.findCredentials(executor, id),
      setPassword: (id: string, passwordHash: string, executor: Executor = db) => accounts.setPassword(executor, id, passwordHash),
      setPendingTotp: (id: string, secretEncrypted: Buffer) => accounts.setPendingTotp(db, id, secretEncrypted),
      enableTotp: (id: string, at: Date, step: number, executor: Executor = db) => accounts.enableTotp(executor, id, at, step),
      disableTotp: (id: string, executor: Executor = db) => accounts.disableTotp(executor, id),
      claimTotpStep: (id: string, step: number) => accounts.claimTotpStep(db, id, step),
      replaceRecoveryCodes: (id: string, hashes: Buffer[], executor: Executor = db) => accounts.replaceRecoveryCodes(executor, id, hashes, clock.now()),
      useRecoveryCode: (id: string, hash: Buffer) => accounts.useRecoveryCode(db, id, hash, clock.now()),
      recoveryCodesLeft: (id: string) => accounts.countRecoveryCodesLeft(db, id),
      insertReset: (row: { token_hash: Buffer; dashboard_user_id: string; created_at: Date; expires_at: Date }) =>
        accounts.insertReset(db, { ...row, used_at: null }),
      claimReset: (tokenHash: Buffer, executor: Executor = db) => accounts.claimReset(executor, tokenHash, clock.now()),
      findReset: (tokenHash: Buffer) => accounts.findReset(db, tokenHash),
      closeResets: (id: string, executor: Executor = db) => accounts.closeResets(executor, id, clock.now()),
      /** Retention: deletes up to `limit` reset links expired by `now`. */
      purgeExpiredResets: (now: Date, limit: number) => accounts.purgeExpiredResets(db, now, limit),
    },
  };
}

export type MerchantsService = ReturnType<typeof createMerchantsService>;
