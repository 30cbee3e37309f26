import type { IncomingMessage } from 'node:http';
import { lookupNumber } from '../connectors.numbering.ts';
import { readRequestBody, SandboxAnswer } from '../sandbox/sandbox.http.ts';
import { PAWAPAY_PROVIDERS, type PawapayProvider } from './pawapay.providers.ts';
import { parse, refusal } from './pawapay.sandbox.answers.ts';
import { type ActiveConf, type Availability, checkPredictBody, PredictBody } from './pawapay.schema.ts';
import type { DisabledOperations, PawapayOperation } from './pawapay.sandbox.types.ts';

/** The account's side of the pawaPay sandbox: its active configuration, the operators' availability, and provider prediction. */

/** The account's configuration: one limit for every operator and operation, callbacks signed unless told, some operations left out. */
export interface AccountSettings {
  limits: { min: number; max: number };
  signCallbacks?: boolean;
  disabled?: DisabledOperations;
}

/** Whether the account's configuration enables `operation` for the operator `code`. */
export function enables(settings: Pick<AccountSettings, 'disabled'>, operation: PawapayOperation, code: string): boolean {
  return !(settings.disabled?.[operation] ?? []).includes(code);
}

export function activeConf(query: URLSearchParams, settings: AccountSettings): ActiveConf {
  const { limits, signCallbacks } = settings;
  const country = query.get('country');
  const operation = query.get('operationType');
  const ops = (['DEPOSIT', 'PAYOUT', 'REFUND'] as const).filter((o) => operation === null || o === operation);
  const countries = [...new Set(PAWAPAY_PROVIDERS.map((p) => p.country3))].filter((c) => country === null || c === country);
  return {
    companyName: 'Caisse sandbox',
    signatureConfiguration: { signedRequestsOnly: false, signedCallbacks: signCallbacks !== false },
    countries: countries.map((c) => {
      const of = PAWAPAY_PROVIDERS.filter((p) => p.country3 === c);
      return {
        country: c,
        prefix: (of[0] as PawapayProvider).prefix,
        providers: of.map((p) => ({
          provider: p.code,
          nameDisplayedToCustomer: 'CAISSE SANDBOX',
          currencies: [
            {
              currency: p.currency,
              operationTypes: Object.fromEntries(
                ops
                  .filter((o) => enables(settings, o, p.code))
                  .map((o) => [
                    o,
                    {
                      minAmount: String(limits.min),
                      maxAmount: String(limits.max),
                      decimalsInAmount: 'NONE' as const,
                      status: 'OPERATIONAL' as const,
                      ...(o === 'DEPOSIT' ? { authType: p.authType } : {}),
                    },
                  ]),
              ),
            },
          ],
        })),
      };
    }),
  };
}

export function availability(query: URLSearchParams, settings: AccountSettings): Availability {
  const conf = activeConf(query, settings);
  return conf.countries.map((c) => ({
    country: c.country,
    providers: c.providers.map((p) => ({
      provider: p.provider,
      operationTypes: Object.fromEntries(Object.keys(p.currencies[0]?.operationTypes ?? {}).map((o) => [o, 'OPERATIONAL'])),
    })),
  }));
}

const OPERATOR_METHOD: Readonly<Record<string, string>> = { mtn: 'mtn_momo', orange: 'orange_money', moov: 'moov_money', free: 'free_money' };

export async function predict(req: IncomingMessage) {
  const body = parse(await readRequestBody(req, undefined), checkPredictBody, PredictBody, ['phoneNumber']);
  const digits = body.phoneNumber.replace(/[\s()+-]/g, '');
  const of = PAWAPAY_PROVIDERS.filter((p) => digits.startsWith(p.prefix));
  if (!/^[0-9]{8,15}$/.test(digits) || of.length === 0)
    return refusal(400, 'INVALID_PHONE_NUMBER', 'The phone number is not valid for any country of this account');
  const method = OPERATOR_METHOD[lookupNumber(`+${digits}`)?.operator ?? ''];
  const provider = of.find((p) => p.method === method) ?? (of[0] as PawapayProvider);
  return new SandboxAnswer(200, { country: provider.country3, provider: provider.code, phoneNumber: digits });
}
