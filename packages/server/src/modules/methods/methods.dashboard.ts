import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { type Country, currencyOf } from '../../platform/countries.ts';
import { CountrySchema } from '../../platform/countries.schema.ts';
import { ApiError } from '../../platform/errors.ts';
import { CARD_METHOD } from '../connectors/index.ts';
import { callerOf, dashboardTags as tags, ModeParams, sessionRoute } from '../../platform/http/dashboard-api.ts';
import { PaymentMethodSettings, PaymentMethodSettingsBody, ProviderList } from './methods.schema.ts';

const Currencies = Type.Array(Type.String());
const CountrySettings = Type.Object({
  country: CountrySchema,
  currency: Type.String({ description: "The currency of the country's payers" }),
  currencies: Type.Object(
    { test: Currencies, live: Currencies },
    { description: "Each mode's currencies intents and payment links may be in: the country's, and those a route there takes (a card route's EUR or USD)" },
  ),
});
const CountryBody = Type.Object({ country: CountrySchema }, { additionalProperties: false });

/**
 * Settings → Payment methods: the merchant's country (both modes) and the methods each mode
 * offers, as the API's `/payment-methods/settings`. Reading needs `settings:read`, changing
 * `settings:write` (owners).
 */
export function methodsDashboardRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { merchants, methods, intents } = app.services;
  const settingsOf = async (country: Country) => ({
    country,
    currency: currencyOf(country),
    currencies: { test: [...(await intents.currenciesTaken('test', country))], live: [...(await intents.currenciesTaken('live', country))] },
  });

  app.get(
    '/settings/country',
    {
      config: sessionRoute('settings:read'),
      schema: { tags, summary: "The merchant's country and its currency", response: { 200: CountrySettings } },
    },
    async (req) => {
      const merchant = await merchants.findMerchant(req.dashboardUser.merchantId);
      if (merchant === undefined) throw new ApiError('not_found', 'No such merchant');
      return settingsOf(merchant.country);
    },
  );

  app.put(
    '/settings/country',
    {
      config: sessionRoute('settings:write'),
      schema: {
        tags,
        summary: "Set the merchant's country: it selects the providers and the currency checkout offers",
        body: CountryBody,
        response: { 200: CountrySettings },
      },
    },
    async (req) => {
      await merchants.setCountry(req.dashboardUser.merchantId, req.body.country);
      return settingsOf(req.body.country);
    },
  );

  app.get(
    '/:mode/payment-methods/settings',
    {
      config: sessionRoute('settings:read'),
      schema: {
        tags,
        summary: 'The payment methods this mode offers (as GET /payment-methods/settings)',
        params: ModeParams,
        response: { 200: PaymentMethodSettings },
      },
    },
    async (req) => methods.settings(callerOf(req)),
  );

  app.put(
    '/:mode/payment-methods/settings',
    {
      config: sessionRoute('settings:write'),
      schema: {
        tags,
        summary: 'Choose the payment methods this mode offers (as PUT /payment-methods/settings)',
        params: ModeParams,
        body: PaymentMethodSettingsBody,
        response: { 200: PaymentMethodSettings },
      },
    },
    async (req) => methods.updateSettings(callerOf(req), req.body),
  );

  // Pages that show or pick a provider (payouts, payments, customers) read its brand and abilities
  // here rather than naming it, for members who may not read the settings.
  app.get(
    '/:mode/providers',
    {
      config: sessionRoute('payments:read'),
      schema: {
        tags,
        summary: "The registry's providers: brand, capabilities, and whether they serve the merchant's country here",
        params: ModeParams,
        response: { 200: ProviderList },
      },
    },
    async (req) => {
      const { country, currency, providers } = await methods.settings(callerOf(req));
      // The providers alone: `card` is no provider a payout or a page picks (its brand is the settings').
      return { country, currency, data: providers.filter((p) => p.provider !== CARD_METHOD) };
    },
  );
}
