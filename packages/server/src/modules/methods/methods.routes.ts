import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { PaymentMethodList, PaymentMethodSettings, PaymentMethodSettingsBody, PaymentMethodsQuery } from './methods.schema.ts';

const tags = ['payment methods'];

/** `GET /payment-methods` for checkout, `GET/PUT /payment-methods/settings` for the merchant (docs/spec/mobile-money-payments.md). */
export default async function methodsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const methods = app.services.methods;

  app.get(
    '/payment-methods',
    {
      config: { auth: 'pk' },
      schema: {
        tags,
        summary: 'The payment methods an intent may use (client operation)',
        description: [
          "For the browser, with the API key alone. Lists what the intent of `sessionToken` may be paid with, in the key's mode, the intent's currency and the merchant's country: `{type: \"wallet\"}` when the merchant offers the Caisse wallet and wallets can hold the intent's currency (live: the country's, which top-ups fill; test: any, which test funding credits), then one `{type: \"mobile_money\", provider, …}` per provider the merchant offers in this mode that is configured and serves its country in that currency, in a stable order, then `{type: \"card\", …}` where a card route takes that currency (an aggregator's card route may add USD to the country's currency).",
          "`minAmount` and `maxAmount` are the bounds of one payment in major units of the intent's currency; `prefixes` suggest the provider of a typed number (longest match; the payer may choose another); `ussd` is what the payer dials when the prompt does not show.",
          'Errors: `not_found` (404: no intent of this merchant and mode has this token), `validation_error` (400: `sessionToken` missing).',
        ].join('\n\n'),
        security: [{ apiKey: [] }],
        querystring: PaymentMethodsQuery,
        response: { 200: PaymentMethodList },
      },
    },
    async (request) => methods.forSession(request.merchant, request.query.sessionToken),
  );

  app.get(
    '/payment-methods/settings',
    {
      config: { auth: 'sk', access: 'payments:read' },
      schema: {
        tags,
        summary: 'The payment methods this mode offers',
        description:
          "The merchant's choice for the key's mode: the wallet on or off, and the mobile-money providers (`providersDefault: true`: every configured provider that serves the merchant's country). Each provider of the registry is listed with whether it is enabled, configured in this mode, serves the country, and so is offered at checkout.",
        security: [{ apiKey: [], secretKey: [] }],
        response: { 200: PaymentMethodSettings },
      },
    },
    async (request) => methods.settings(request.merchant),
  );

  app.put(
    '/payment-methods/settings',
    {
      config: { auth: 'sk', access: 'payments:write' },
      schema: {
        tags,
        summary: 'Choose the payment methods this mode offers',
        description:
          "`wallet` turns the Caisse wallet on or off; `providers` names exactly the mobile-money providers to offer (`null`: back to the default); `order` puts the named providers first in checkout, in that order (`null`: the country's default order). A field left out keeps its value. A provider that is not configured in this mode or does not serve the merchant's country may be named; it is offered once it is. Errors: `provider_unsupported` (400: not a provider of the registry), `validation_error`, `parameter_unknown`.",
        security: [{ apiKey: [], secretKey: [] }],
        body: PaymentMethodSettingsBody,
        response: { 200: PaymentMethodSettings },
      },
    },
    async (request) => methods.updateSettings(request.merchant, request.body),
  );
}
