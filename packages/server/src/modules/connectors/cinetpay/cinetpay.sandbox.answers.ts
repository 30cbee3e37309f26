import type { IncomingMessage } from 'node:http';
import { safeEqual } from '../../../platform/crypto.ts';
import { formFields, headerOf, SandboxAnswer } from '../sandbox/sandbox.http.ts';
import { PAYMENT_CODES } from './cinetpay.rules.ts';
import { type CinetPaySandboxOptions, SANDBOX_API_KEY_PREFIX } from './cinetpay.sandbox.types.ts';

/** How the CinetPay sandbox reads requests and words its answers, as CinetPay does, and which credentials it takes. */

/** A payment API refusal: CinetPay answers `{code, message, description}`. */
export function refused(status: number, code: string, message: string, description: string): SandboxAnswer {
  return new SandboxAnswer(status, { code, message, description, api_response_id: `${Date.now() / 1000}` });
}

export function transferAnswer(code: number, message: string, description: string, data: unknown = []): SandboxAnswer {
  return new SandboxAnswer(200, { code, message, description, data });
}

/** CinetPay's date form (`2022-09-15 22:57:15`). */
export function cinetPayDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** The payment code a failure is read back with (the connector reads them back: cinetpay.rules.ts). */
export function failureCode(reason: string | undefined): { code: string; message: string } {
  switch (reason) {
    case 'PAYER_NOT_FOUND':
      return { code: PAYMENT_CODES.ERROR_PHONE_NUMBER_NOT_FOUND, message: 'ERROR_PHONE_NUMBER_NOT_FOUND' };
    case 'NOT_ENOUGH_FUNDS':
      return { code: PAYMENT_CODES.INSUFFICIENT_BALANCE, message: 'INSUFFICIENT_BALANCE' };
    case 'APPROVAL_REJECTED':
    case 'CANCELLED':
      return { code: PAYMENT_CODES.TRANSACTION_CANCEL, message: 'TRANSACTION_CANCEL' };
    case 'EXPIRED':
      return { code: PAYMENT_CODES.ABONNEMENT_OR_TRANSACTIONS_EXPIRED, message: 'ABONNEMENT_OR_TRANSACTIONS_EXPIRED' };
    default:
      return { code: PAYMENT_CODES.PAYMENT_FAILED, message: 'PAYMENT_FAILED' };
  }
}

/** A body as JSON, or as a form (CinetPay takes both; its Python SDK posts a form). */
export function bodyFields(req: IncomingMessage, text: string): unknown {
  const type = headerOf(req, 'content-type') ?? '';
  if (type.includes('application/x-www-form-urlencoded')) {
    const f: Record<string, unknown> = formFields(text);
    if (typeof f.amount === 'string' && /^[0-9]+$/.test(f.amount)) f.amount = Number(f.amount);
    if (f.lock_phone_number === 'true' || f.lock_phone_number === 'false') f.lock_phone_number = f.lock_phone_number === 'true';
    return f;
  }
  try {
    return JSON.parse(text === '' ? '{}' : text);
  } catch {
    return undefined;
  }
}

/** The apikey and site_id it takes: the configured ones, or any of the right form (production: none of test mode's). */
export function credentialChecks(opts: CinetPaySandboxOptions) {
  const siteOk = (siteId: string) => (opts.siteId === undefined ? /^[0-9]{1,12}$/.test(siteId) : safeEqual(siteId, opts.siteId));
  const keyOk = (apiKey: string) => {
    if (opts.apiKey !== undefined) return safeEqual(apiKey, opts.apiKey);
    // Production knows only its merchants' keys: test mode's does not exist there.
    if (opts.production === true) return apiKey !== '' && !apiKey.startsWith(SANDBOX_API_KEY_PREFIX);
    return apiKey.startsWith('cinetpay_');
  };
  return { siteOk, keyOk };
}
