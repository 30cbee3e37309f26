import type { Deps } from '../../platform/deps.ts';
import { ApiError } from '../../platform/errors.ts';
import type { IdempotentAnswer } from '../../platform/http/idempotency.ts';
import { assertCurrency, type Currency, formatAmount, parseAmount } from '../../platform/money.ts';
import { liveModeOpen, type Scope } from '../../platform/tenancy.ts';
import type { Country } from '../../platform/countries.ts';
import type { IntentList, IntentsService } from '../intents/index.ts';
import { type PaymentLinkRow, paymentLinksRepository as repo } from './paymentlinks.repository.ts';
import {
  type CreatePaymentLinkBody,
  LINK_METADATA_KEY,
  type ListLinkPaymentsQuery,
  type ListPaymentLinksQuery,
  type PaymentLink,
  type PaymentLinkList,
  type UpdatePaymentLinkBody,
} from './paymentlinks.schema.ts';

/** What a visit needs of the link's merchant: its language (the unavailable page) and its intents' validity. */
export interface LinkMerchant {
  name: string;
  language: string;
  intentExpiresIn: number;
  /** Frozen by an operator: its links open nothing, as inactive ones. */
  frozen?: boolean;
  /** Approved for live mode: a live link of a merchant that is not opens nothing, as an inactive one. */
  approved: boolean;
  /** Where it sells: its links' currencies are those its intents may be in. */
  country: Country;
}

/** What a visit of `/pay/{linkId}` comes to. */
export type Visit =
  | { kind: 'checkout'; sessionToken: string; intentId: string }
  | { kind: 'open'; merchantLanguage: string; merchantName: string; amountMinor: bigint; currency: Currency; description: string }
  | { kind: 'inactive'; merchantLanguage: string }
  | { kind: 'not_found' };

/** A link's shareable address on this server: `origin` is how the caller reached it (scheme://host). */
export function linkUrl(origin: string, id: string): string {
  return `${origin}/pay/${id}`;
}

function view(row: PaymentLinkRow, origin: string): PaymentLink {
  const currency = row.currency as Currency;
  return {
    id: row.id,
    object: 'payment_link',
    url: linkUrl(origin, row.id),
    amount: formatAmount(row.amount_minor, currency),
    currency,
    description: row.description,
    metadata: row.metadata,
    active: row.active,
    livemode: row.mode === 'live',
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function notFound(id: string): ApiError {
  return new ApiError('not_found', `No payment link ${id}`, { param: 'id' });
}

export function createPaymentLinksService(
  deps: Deps,
  collaborators: {
    intents: Pick<IntentsService, 'createIn' | 'retrieveMany' | 'assertCurrencyTaken' | 'currenciesTaken'>;
    /** The link's merchant; undefined when it no longer exists. */
    merchant: (merchantId: string) => Promise<LinkMerchant | undefined>;
  },
) {
  const { db, clock, ids } = deps;
  const { intents } = collaborators;

  async function found(scope: Scope, id: string): Promise<PaymentLinkRow> {
    const row = await repo.find(db, scope, id);
    if (!row) throw notFound(id);
    return row;
  }

  /** The link and its merchant, as a visit finds them by id alone. */
  async function lookUp(linkId: string): Promise<{ row: PaymentLinkRow; merchant: LinkMerchant } | undefined> {
    const row = /^plink_[0-9a-z]{26}$/.test(linkId) ? await repo.findById(db, linkId) : undefined;
    const merchant = row && (await collaborators.merchant(row.merchant_id));
    return row && merchant ? { row, merchant } : undefined;
  }

  /** A link that opens nothing: switched off, its merchant frozen, or live mode not open to it. */
  const closed = async (row: PaymentLinkRow, merchant: LinkMerchant) =>
    !row.active ||
    merchant.frozen === true ||
    !liveModeOpen(merchant, row.mode) ||
    // A link made before its merchant moved to a country (or its accounts changed) whose routes do not take its currency.
    !(await intents.currenciesTaken(row.mode, merchant.country)).includes(row.currency as Currency);

  return {
    /** Creates a link; with an Idempotency-Key, the insert and the stored answer are one transaction. */
    async create(scope: Scope, body: CreatePaymentLinkBody, origin: string, answer?: IdempotentAnswer): Promise<PaymentLink> {
      const currency = assertCurrency(body.currency);
      const merchant = await collaborators.merchant(scope.merchantId);
      if (merchant) await intents.assertCurrencyTaken({ mode: scope.mode, merchantCountry: merchant.country }, currency);
      const amountMinor = parseAmount(body.amount, currency);
      const metadata = body.metadata ?? {};
      if (LINK_METADATA_KEY in metadata) {
        throw new ApiError('metadata_invalid', `The metadata key ${LINK_METADATA_KEY} is reserved: every intent of the link carries the link's id under it`, {
          param: `metadata.${LINK_METADATA_KEY}`,
        });
      }
      const now = clock.now();
      return db.transaction().execute(async (tx) => {
        const row = await repo.insert(tx, {
          id: ids('paymentLink'),
          merchant_id: scope.merchantId,
          mode: scope.mode,
          amount_minor: amountMinor,
          currency,
          description: body.description,
          metadata: JSON.stringify(metadata),
          active: body.active ?? true,
          created_at: now,
          updated_at: now,
        });
        const link = view(row, origin);
        await answer?.record(tx, 201, link);
        return link;
      });
    },

    async retrieve(scope: Scope, id: string, origin: string): Promise<PaymentLink> {
      return view(await found(scope, id), origin);
    },

    async list(scope: Scope, query: ListPaymentLinksQuery, origin: string): Promise<PaymentLinkList> {
      const limit = query.limit ?? 20;
      const rows = await repo.list(db, scope, { limit, startingAfter: query.startingAfter });
      return { object: 'list', data: rows.slice(0, limit).map((r) => view(r, origin)), hasMore: rows.length > limit };
    },

    /** Deactivates a link (visits then answer 410) or opens it again. */
    async update(scope: Scope, id: string, body: UpdatePaymentLinkBody, origin: string): Promise<PaymentLink> {
      const row = await repo.setActive(db, scope, id, body.active, clock.now());
      if (!row) throw notFound(id);
      return view(row, origin);
    },

    /** The intents the link created, newest first, as the merchant reads them. */
    async listPayments(scope: Scope, id: string, query: ListLinkPaymentsQuery): Promise<IntentList> {
      await found(scope, id);
      const limit = query.limit ?? 20;
      const intentIds = await repo.intentIds(db, id, { limit, startingAfter: query.startingAfter });
      return { object: 'list', data: await intents.retrieveMany(scope, intentIds.slice(0, limit)), hasMore: intentIds.length > limit };
    },

    /**
     * A person opened the link: a new PENDING intent of the link's merchant and mode, for its
     * amount, currency and description, its metadata plus `payment_link`, recorded against the
     * link in the same transaction. An unknown link (or merchant) or an inactive one creates nothing.
     */
    async visit(linkId: string): Promise<Visit> {
      const found = await lookUp(linkId);
      if (!found) return { kind: 'not_found' };
      const { row, merchant } = found;
      if (await closed(row, merchant)) return { kind: 'inactive', merchantLanguage: merchant.language };
      const created = await db.transaction().execute(async (tx) => {
        const intent = await intents.createIn(
          tx,
          {
            merchantId: row.merchant_id,
            mode: row.mode,
            intentExpiresIn: merchant.intentExpiresIn,
            approved: merchant.approved,
            merchantCountry: merchant.country,
          },
          {
            amount: formatAmount(row.amount_minor, row.currency as Currency),
            currency: row.currency,
            description: row.description,
            metadata: { ...row.metadata, [LINK_METADATA_KEY]: row.id },
          },
        );
        await repo.recordIntent(tx, row.id, intent.id);
        return intent;
      });
      return { kind: 'checkout', sessionToken: created.sessionToken, intentId: created.id };
    },

    /** What a visit would come to, creating nothing (a HEAD request, a link preview's robot). */
    async peek(linkId: string): Promise<Visit> {
      const found = await lookUp(linkId);
      if (!found) return { kind: 'not_found' };
      const { row, merchant } = found;
      if (await closed(row, merchant)) return { kind: 'inactive', merchantLanguage: merchant.language };
      return {
        kind: 'open',
        merchantLanguage: merchant.language,
        merchantName: merchant.name,
        amountMinor: row.amount_minor,
        currency: row.currency as Currency,
        description: row.description,
      };
    },
  };
}

export type PaymentLinksService = ReturnType<typeof createPaymentLinksService>;
