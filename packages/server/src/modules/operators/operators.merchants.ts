import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { MerchantsService, TermsPatch } from '../merchants/index.ts';
import { CARD_METHOD } from '../connectors/index.ts';
import { CARD_BRANDS, type MethodName, type MethodsService } from '../methods/index.ts';
import type { RecordAudit } from './operators.audit.ts';
import type { OperatorSession } from './operators.sessions.ts';

/** The merchants list shows at most this many (the search box finds the others). */
const MERCHANT_LIST_LIMIT = 50;

/** The merchants seen from above: search, a merchant's page, and what an operator changes on it (freeze, terms, methods), each audited. */
export function createOperatorMerchants(
  deps: Pick<Deps, 'db'>,
  collaborators: {
    merchants: Pick<MerchantsService, 'searchMerchants' | 'merchantProfile' | 'setFrozen' | 'setTerms'>;
    ledger: Pick<LedgerService, 'merchantBalances'>;
    methods: Pick<MethodsService, 'allowance' | 'setAllowance' | 'settings'>;
  },
  record: RecordAudit,
) {
  const { db } = deps;
  const { merchants, ledger, methods } = collaborators;

  /** A merchant's page: its settings and keys from the merchants module, its balances from the ledger. */
  async function merchantPage(merchantId: string) {
    const profile = await merchants.merchantProfile(merchantId);
    if (!profile) throw new ApiError('not_found', `No merchant ${merchantId}`, { param: 'id' });
    const balances = [];
    for (const mode of ['test', 'live'] as const) {
      for (const kind of ['merchant_pending', 'merchant_balance', 'merchant_reserve'] as const) {
        for (const b of await ledger.merchantBalances(merchantId, mode, db, kind)) balances.push({ mode, kind, currency: b.currency, amount: b.amount });
      }
    }
    const allowance = (mode: 'test' | 'live') => methods.allowance({ merchantId, mode });
    return { object: 'operator_merchant' as const, ...profile, methods: { test: await allowance('test'), live: await allowance('live') }, balances };
  }

  return {
    async listMerchants(q: { q?: string }) {
      return { object: 'list' as const, data: await merchants.searchMerchants(q.q ?? '', MERCHANT_LIST_LIMIT) };
    },

    merchant: merchantPage,

    /** Freezes (or unfreezes) a merchant with a reason; the audit entry commits with the change. */
    async setFrozen(s: OperatorSession, merchantId: string, frozen: boolean, reason: string) {
      const text = reason.trim();
      if (text === '') throw new ApiError('validation_error', 'Say why (reason): the audit log keeps it', { param: 'reason' });
      await merchants.setFrozen(merchantId, frozen ? { reason: text } : null, (tx, before, after) =>
        record(tx, s, { action: frozen ? 'merchant.frozen' : 'merchant.unfrozen', targetType: 'merchant', targetId: merchantId, before, after, reason: text }),
      );
      return merchantPage(merchantId);
    },

    /** Sets some of a merchant's terms (fees, settlement delay, reserve) with a reason; the audit entry commits with them. */
    async setTerms(
      s: OperatorSession,
      merchantId: string,
      body: { reason: string } & Omit<TermsPatch, 'fees'> & { fees?: { bps: number; fixedMinor: Record<string, string> } | null },
    ) {
      const text = body.reason.trim();
      if (text === '') throw new ApiError('validation_error', 'Say why (reason): the audit log keeps it', { param: 'reason' });
      const fees = body.fees && { bps: body.fees.bps, fixedMinor: Object.fromEntries(Object.entries(body.fees.fixedMinor).map(([c, v]) => [c, BigInt(v)])) };
      await merchants.setTerms(merchantId, { fees, settlementDelayDays: body.settlementDelayDays, reserve: body.reserve }, (tx, before, after) =>
        record(tx, s, { action: 'merchant.terms_set', targetType: 'merchant', targetId: merchantId, before, after, reason: text }),
      );
      return merchantPage(merchantId);
    },

    /**
     * What the cap's form lists per mode: the methods of the merchant's settings served in its
     * country, and any the cap names already (so that it can be lifted), never an aggregator.
     */
    async methodChoices(merchantId: string) {
      const choices = async (mode: 'test' | 'live') => {
        const [settings, cap] = await Promise.all([methods.settings({ merchantId, mode }), methods.allowance({ merchantId, mode })]);
        const named = cap.providers ?? [];
        const choice = settings.providers
          .filter((p) => p.servesCountry || named.includes(p.provider))
          .map((p) => ({ method: p.provider, name: p.name, servesCountry: p.servesCountry, configured: p.configured }));
        // The settings list card only where a card route serves the country; a cap may name it elsewhere.
        if (named.includes(CARD_METHOD) && !choice.some((c) => c.method === CARD_METHOD))
          choice.push({ method: CARD_METHOD, name: CARD_BRANDS, servesCountry: false, configured: false });
        return { country: settings.country, choice };
      };
      const [test, live] = await Promise.all([choices('test'), choices('live')]);
      return { object: 'merchant_method_choices' as const, country: live.country, test: test.choice, live: live.choice };
    },

    /** Sets the payment methods a merchant may offer in one mode, with a reason; the audit entry commits with them. */
    async setMethods(s: OperatorSession, merchantId: string, body: { mode: 'test' | 'live'; wallet: boolean; providers: MethodName[] | null; reason: string }) {
      const text = body.reason.trim();
      if (text === '') throw new ApiError('validation_error', 'Say why (reason): the audit log keeps it', { param: 'reason' });
      await methods.setAllowance({ merchantId, mode: body.mode }, { wallet: body.wallet, providers: body.providers }, s.operatorId, (tx, before, after) =>
        record(tx, s, {
          action: 'merchant.methods_set',
          targetType: 'merchant',
          targetId: merchantId,
          before: { mode: body.mode, ...before },
          after: { mode: body.mode, ...after },
          reason: text,
        }),
      );
      return merchantPage(merchantId);
    },
  };
}
