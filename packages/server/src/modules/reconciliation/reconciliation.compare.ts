import { formatAmount, isCurrency } from '../../platform/money.ts';
import type { ConnectorKind, KnownRequest, ListedRequest, StatusResult } from '../connectors/index.ts';
import type { InFlight, Mismatch, OurRequest, OurSide, ProviderSide, ReconciledObject, Unverified } from './reconciliation.types.ts';

/** One request of ours against the provider's word about it: the verdicts a report is made of. */

/** Per object: the connector product it goes through and our status that means "the money moved". */
export const OBJECTS = {
  topup: { kind: 'collection', done: 'SUCCEEDED' },
  payout: { kind: 'disbursement', done: 'PAID' },
  attempt: { kind: 'collection', done: 'SUCCEEDED' },
  refund: { kind: 'disbursement', done: 'SUCCEEDED' },
} as const satisfies Record<ReconciledObject, { kind: ConnectorKind; done: string }>;

function amountOf(minor: bigint, currency: string): string {
  return isCurrency(currency) ? formatAmount(minor, currency) : minor.toString();
}

function ourSide(row: OurRequest<string>): OurSide {
  return { status: row.status, amount: amountOf(row.amount_minor, row.currency), currency: row.currency, createdAt: row.created_at.toISOString() };
}

function providerSide(result: StatusResult): ProviderSide {
  if (result.status === 'NOT_FOUND') return { status: 'NOT_FOUND' };
  if (result.status === 'UNKNOWN') return { status: 'UNKNOWN', reason: result.reason };
  return {
    status: result.status,
    amount: formatAmount(result.amount, result.currency),
    currency: result.currency,
    ...(result.status === 'FAILED' && result.reason !== undefined ? { reason: result.reason } : {}),
    ...(result.providerTransactionId !== undefined ? { providerTransactionId: result.providerTransactionId } : {}),
    ...(result.externalId !== undefined ? { externalId: result.externalId } : {}),
  };
}

export type Verdict =
  | { type: 'agreed' }
  | { type: 'mismatched'; mismatches: Mismatch[] }
  | { type: 'in_flight'; entry: InFlight }
  | { type: 'unverified'; entry: Unverified };

/**
 * One request of ours against the provider's answer about its reference. A FAILED request the
 * provider never saw agrees (no money moved on either side: refused before sending, or never
 * submitted); one we count as moved does not.
 */
export function compareRequest(object: ReconciledObject, row: OurRequest<string>, result: StatusResult): Verdict {
  const ours = ourSide(row);
  const provider = providerSide(result);
  const base = { object, id: row.id, reference: row.reference };
  if (row.status === 'PENDING') return { type: 'in_flight', entry: { ...base, ours, provider } };
  if (result.status === 'UNKNOWN') return { type: 'unverified', entry: { ...base, ours, reason: result.reason } };
  const moved = row.status === OBJECTS[object].done;
  if (result.status === 'NOT_FOUND') {
    if (!moved) return { type: 'agreed' };
    const detail = `we have ${row.status} ${ours.amount} ${ours.currency}, the provider does not know the reference`;
    return { type: 'mismatched', mismatches: [{ kind: 'missing_at_provider', ...base, ours, provider, detail }] };
  }
  const mismatches: Mismatch[] = [];
  const expected = moved ? 'SUCCESSFUL' : 'FAILED';
  if (result.status !== expected) {
    const theirs = result.status === 'PENDING' ? 'still PENDING' : `${result.status}${provider.reason !== undefined ? ` (${provider.reason})` : ''}`;
    mismatches.push({ kind: 'status', ...base, ours, provider, detail: `we have ${row.status}, the provider ${theirs}` });
  }
  if (result.currency !== row.currency || result.amount !== row.amount_minor) {
    const detail = `we have ${ours.amount} ${ours.currency}, the provider ${provider.amount} ${provider.currency}`;
    mismatches.push({ kind: 'amount', ...base, ours, provider, detail });
  }
  return mismatches.length === 0 ? { type: 'agreed' } : { type: 'mismatched', mismatches };
}

/** A request the provider lists and we do not have. */
export function missingHere(object: ReconciledObject, listed: ListedRequest): Mismatch {
  const provider: ProviderSide = {
    status: listed.status,
    amount: listed.amount,
    currency: listed.currency,
    ...(listed.externalId !== undefined ? { externalId: listed.externalId } : {}),
  };
  const external = listed.externalId !== undefined ? ` (externalId ${listed.externalId})` : '';
  const detail = `the provider has ${listed.status} ${listed.amount} ${listed.currency}${external} from ${listed.createdAt.toISOString()}, we have no ${object} with this reference`;
  return { kind: 'missing_here', object, id: null, reference: listed.reference, ours: null, provider, detail };
}

/** What we stored about a request, for a provider that reads it by more than our reference (any provider may ignore it). */
export function knownOf(row: OurRequest<string>): KnownRequest {
  const currency = isCurrency(row.currency) ? row.currency : undefined;
  return {
    ...(row.provider_reference ? { providerReference: row.provider_reference } : {}),
    amount: row.amount_minor,
    ...(currency !== undefined ? { currency } : {}),
  };
}
