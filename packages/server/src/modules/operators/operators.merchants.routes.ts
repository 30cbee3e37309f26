import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { need, tags } from './operators.http.ts';
import {
  FreezeBody,
  MerchantIdParams,
  MerchantMethodChoices,
  MerchantMethodsBody,
  MerchantsQuery,
  MerchantSummaryList,
  MerchantTermsBody,
  OperatorMerchant,
} from './operators.schema.ts';

/** The merchants: search, a merchant's page, freeze, terms and payment methods. */
export async function operatorMerchantsRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const operators = app.services.operators;

  app.get(
    '/merchants',
    {
      config: need('merchants:read'),
      schema: {
        tags,
        summary: 'Merchants, newest first, by id, name or e-mail (50 at most)',
        querystring: MerchantsQuery,
        response: { 200: MerchantSummaryList },
      },
    },
    async (req) => operators.listMerchants(req.query),
  );

  app.get(
    '/merchants/:id',
    {
      config: need('merchants:read'),
      schema: { tags, summary: 'A merchant: settings, keys, balances and freeze', params: MerchantIdParams, response: { 200: OperatorMerchant } },
    },
    async (req) => operators.merchant(req.params.id),
  );

  for (const [path, frozen] of [
    ['freeze', true],
    ['unfreeze', false],
  ] as const) {
    app.post(
      `/merchants/:id/${path}`,
      {
        config: need('merchants:freeze'),
        schema: {
          tags,
          summary: frozen
            ? 'Freeze a merchant: its new intents, charges and payouts answer 403 `merchant_frozen`, in both modes, at once'
            : 'Unfreeze a merchant',
          params: MerchantIdParams,
          body: FreezeBody,
          response: { 200: OperatorMerchant },
        },
      },
      async (req) => operators.setFrozen(req.operatorSession, req.params.id, frozen, req.body.reason),
    );
  }

  app.put(
    '/merchants/:id/terms',
    {
      config: need('merchants:terms'),
      schema: {
        tags,
        summary: "Set a merchant's fees, settlement delay or rolling reserve (a field left out keeps its value); they apply to payments from then on",
        params: MerchantIdParams,
        body: MerchantTermsBody,
        response: { 200: OperatorMerchant },
      },
    },
    async (req) => operators.setTerms(req.operatorSession, req.params.id, req.body),
  );

  // The form's checkboxes: methods, never the connectors that reach them (an aggregator is no method a cap names).
  app.get(
    '/merchants/:id/methods/choices',
    {
      config: need('merchants:methods'),
      schema: {
        tags,
        summary:
          'The payment methods a cap may name for this merchant, per mode: those served in its country (`card` where a card route serves it), and those the cap names already',
        params: MerchantIdParams,
        response: { 200: MerchantMethodChoices },
      },
    },
    async (req) => operators.methodChoices(req.params.id),
  );

  app.put(
    '/merchants/:id/methods',
    {
      config: need('merchants:methods'),
      schema: {
        tags,
        summary:
          'Set the payment methods a merchant may offer in a mode: checkout stops offering the others at once, and the merchant choosing one answers 403 `payment_method_not_allowed`',
        params: MerchantIdParams,
        body: MerchantMethodsBody,
        response: { 200: OperatorMerchant },
      },
    },
    async (req) => operators.setMethods(req.operatorSession, req.params.id, req.body),
  );
}
