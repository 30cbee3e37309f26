import type { Executor } from '../../platform/db.ts';
import type { Country } from '../../platform/countries.ts';
import { ApiError } from '../../platform/errors.ts';
import type { Currency } from '../../platform/money.ts';
import { parsePhoneNumber } from '../../platform/phone.ts';
import type { KeyMode, Scope } from '../../platform/tenancy.ts';
import {
  type ConnectorRegistry,
  type ConnectorSource,
  describeProvider,
  providerUnavailable,
  isAcceptableMessage,
  providerDescriptions,
  isProviderName,
  assertProviderTakes,
  servesNumber,
} from '../connectors/index.ts';

/**
 * Where a payout goes: the connectors and provider account a merchant's payouts go through, and
 * the checks of a destination and of the message the payee reads, before anything is written.
 */
export function createPayoutDestinations(collaborators: {
  connectors: ConnectorSource;
  /** The merchant's country, which chooses the provider account (absent: the platform's accounts of the mode). */
  countryOf?: (merchantId: string, executor: Executor) => Promise<Country | undefined>;
}) {
  const { connectors } = collaborators;
  const connectorFor = (mode: KeyMode, provider: string) => connectors.forMode(mode).get(provider);
  /** The connectors a merchant's new payouts go through: its country's provider accounts (section 14), read in `executor`. */
  const registryOf = async (scope: Scope, executor: Executor, country?: Country): Promise<ConnectorRegistry> => {
    const where = country ?? (await collaborators.countryOf?.(scope.merchantId, executor));
    return where === undefined ? connectors.forMode(scope.mode) : connectors.forMerchant(scope.mode, where, executor);
  };
  /** The account a new payout goes through; none (not configured, or its account disabled): 503, before anything is sent. */
  const accountOf = async (scope: Scope, provider: string, executor: Executor): Promise<string> => {
    const registry = await registryOf(scope, executor);
    const account = registry.get(provider) === undefined ? undefined : registry.account(provider);
    if (account === undefined) throw providerUnavailable(registry, provider, scope.mode, 'destination.provider');
    return account;
  };

  /** The destination with its number as E.164 (read in `country` when typed without its country code), or the 400 that refuses it. */
  function checkDestination(
    mode: KeyMode,
    country: Country,
    d: { provider: string; phoneNumber: string },
    money?: { currency: Currency; amount: bigint },
    registry?: ConnectorRegistry,
  ): { provider: string; phoneNumber: string } {
    const connectorFor = (m: KeyMode, provider: string) => (registry ?? connectors.forMode(m)).get(provider);
    const senders = providerDescriptions()
      .filter((p) => p.capabilities.disburse)
      .map((p) => p.name);
    if (!isProviderName(d.provider))
      throw new ApiError('provider_unsupported', `Unknown provider "${d.provider}"; payouts go to ${senders.join(', ')}`, { param: 'destination.provider' });
    // A provider that only collects (Orange Money Web Payment) has no operation to send money with.
    if (describeProvider(d.provider)?.capabilities.disburse !== true) {
      throw new ApiError('destination_unsupported', `${d.provider} cannot receive payouts; payouts go to ${senders.join(', ')}`, {
        param: 'destination.provider',
      });
    }
    const phoneNumber = parsePhoneNumber(d.phoneNumber, country, 'destination.phoneNumber');
    if (!connectorFor(mode, d.provider)) throw providerUnavailable(registry ?? connectors.forMode(mode), d.provider, mode, 'destination.provider');
    const lacking = connectorFor(mode, d.provider)?.lacks?.disburse;
    if (lacking !== undefined)
      throw new ApiError('destination_unsupported', `${d.provider} cannot receive payouts: ${lacking}`, { param: 'destination.provider' });
    // A schedule is saved without an amount: its number is checked now, its amounts when it runs.
    const description = describeProvider(d.provider)!;
    if (money) assertProviderTakes(description, { phoneNumber, ...money }, { phoneNumber: 'destination.phoneNumber' }, connectorFor(mode, d.provider));
    else if (!servesNumber(description, phoneNumber))
      throw new ApiError('phone_invalid', `${description.displayName} does not serve ${phoneNumber}`, { param: 'destination.phoneNumber' });
    return { provider: d.provider, phoneNumber };
  }

  return { connectorFor, registryOf, accountOf, checkDestination };
}

/**
 * The description goes to the payee as the provider's message: refused here (400
 * `description_invalid`) by the provider's own rules, rather than by the provider after the
 * money left `available` (MTN: 1 to 160 characters, none of `& ' < >`).
 */
export function checkDescription(provider: string, description: string | undefined): void {
  const rules = describeProvider(provider)?.messages;
  if (description === undefined || rules === undefined || isAcceptableMessage(rules, description)) return;
  const forbidden = rules.forbidden ? `, without ${[...rules.forbidden].join(' ')}` : '';
  throw new ApiError(
    'description_invalid',
    `description must be ${rules.minLength} to ${rules.maxLength} characters${forbidden}: ${provider} refuses other messages`,
    { param: 'description' },
  );
}
