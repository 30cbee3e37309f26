import { ApiError } from '../../platform/errors.ts';
import type { MerchantContext } from '../../platform/tenancy.ts';
import { connectorsServing, lookupNumber, operatorName, type PaymentCustomer, paymentMethodCatalogue, type PaymentMethodInfo } from '../connectors/index.ts';
import { type IntentRow, type IntentsService, isDue } from '../intents/index.ts';
import type { RouteKey, RoutesService } from '../routes/index.ts';
import type { Cardholder } from './charges.schema.ts';

/**
 * The intent's session token (x-session-token), which stands for the payer: 401 when it is
 * missing, or is not this intent's of this merchant and mode. The token, checked.
 */
export async function checkSessionToken(
  intents: Pick<IntentsService, 'sessionOwner'>,
  merchant: MerchantContext,
  sessionToken: string | undefined,
  intentId: string,
): Promise<string> {
  if (sessionToken === undefined)
    throw new ApiError('session_token_missing', "Send the intent's sessionToken (ps_…) in the x-session-token header", { param: 'x-session-token' });
  const owner = await intents.sessionOwner(sessionToken);
  if (!owner || owner.merchantId !== merchant.merchantId || owner.mode !== merchant.mode || !sessionToken.includes(intentId.slice(3))) {
    throw new ApiError('session_token_invalid', 'The x-session-token is not the session token of this intent', { param: 'x-session-token' });
  }
  return sessionToken;
}

/** Why an intent in this state cannot be charged now, or undefined when it can (PENDING, not due). */
export function refusalOfState(intent: IntentRow, now: Date): ApiError | undefined {
  if (intent.status === 'EXPIRED' || (intent.status === 'PENDING' && isDue(intent.expires_at, now)))
    return new ApiError('intent_expired', 'The intent has expired; create a new intent', { param: 'intentionId' });
  if (intent.status === 'PROCESSING')
    return new ApiError('attempt_in_progress', 'An attempt of this intent is waiting for the provider; wait for its outcome', { param: 'intentionId' });
  if (intent.status !== 'PENDING')
    return new ApiError('intent_state_invalid', `An intent that is ${intent.status} cannot be charged`, { extra: { intentStatus: intent.status } });
  return undefined;
}

/** The card holder as the card route's provider asks for them: trimmed, the phone in E.164, the region the country's code when not given. */
export function customerOf(holder: Cardholder, phoneNumber: string): PaymentCustomer {
  return {
    name: holder.name.trim(),
    surname: holder.surname.trim(),
    email: holder.email.trim(),
    phoneNumber,
    address: holder.address.trim(),
    city: holder.city.trim(),
    country: holder.country,
    state: holder.state?.trim() || holder.country,
    zipCode: holder.zipCode.trim(),
  };
}

/**
 * The number's operator (the numbering table) decides what can take it: 400
 * `operator_unsupported`, naming the operator, when no method of it has a route here (none
 * serves it in the merchant's country, or, for another method than the one chosen, none with an
 * account in this mode); 400 `phone_invalid` naming the method that does, when the payer chose
 * another. A method tied to no network (Wave) takes any number of its countries.
 */
export async function refuseUnreachedOperator(
  routes: Pick<RoutesService, 'availability'>,
  route: RouteKey,
  method: PaymentMethodInfo,
  phoneNumber: string,
): Promise<void> {
  const info = lookupNumber(phoneNumber);
  if (method.network === null || info?.operator === undefined || info.country !== route.country) return;
  const operator = info.operator;
  const served = paymentMethodCatalogue().filter((m) => m.network === operator && connectorsServing(m.name, route.country).length > 0);
  // The chosen method's own operator: an account missing in this mode is the 503 further on.
  const reached =
    method.network === operator
      ? served
      : (
          await Promise.all(
            served.map(async (m) => ((await routes.availability({ ...route, method: m.name }).catch(() => 'none' as const)) === 'none' ? [] : [m])),
          )
        ).flat();
  const name = operatorName(operator);
  if (reached.length === 0)
    throw new ApiError(
      'operator_unsupported',
      `${phoneNumber} is a ${name} number, and no payment method of this merchant reaches ${name} in ${route.country} in ${route.mode} mode; pay with a number of another operator`,
      { param: 'paymentMethod.phoneNumber', extra: { operator } },
    );
  if (method.network !== operator)
    throw new ApiError(
      'phone_invalid',
      `${phoneNumber} is a ${name} number, which ${method.displayName} does not serve; choose ${reached.map((m) => m.displayName).join(' or ')}`,
      { param: 'paymentMethod.phoneNumber', extra: { operator } },
    );
}
