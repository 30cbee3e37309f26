import { ApiError } from '../../platform/errors.ts';
import type { Connector, ConnectorKind, IncomingCallback, StatusResult } from './connectors.types.ts';

/** What a provider's answer decides about a request: paid (with what the provider holds) or failed. */
export type Decision = { status: 'SUCCESSFUL'; amount: bigint; currency: string; providerTransactionId?: string } | { status: 'FAILED'; reason: string };

/** The decision in a status answer, if it holds one (PENDING, NOT_FOUND and UNKNOWN decide nothing). */
export function decisionOf(result: StatusResult): Decision | undefined {
  if (result.status === 'SUCCESSFUL')
    return { status: 'SUCCESSFUL', amount: result.amount, currency: result.currency, providerTransactionId: result.providerTransactionId };
  if (result.status === 'FAILED') return { status: 'FAILED', reason: result.reason ?? 'FAILED' };
  return undefined;
}

/**
 * A callback for one of our requests of `kind`: authenticated by the connector (400
 * `callback_invalid` otherwise), then only a hint: the decision is what the provider's status
 * says now.
 */
export async function callbackDecision(
  connector: Connector,
  kind: ConnectorKind,
  reference: string,
  callback: IncomingCallback,
): Promise<Decision | undefined> {
  const verified = await connector.verifyCallback(callback);
  if (!verified.ok || verified.reference !== reference || verified.kind !== kind)
    throw new ApiError('callback_invalid', 'The callback could not be authenticated');
  return decisionOf(verified.result);
}
