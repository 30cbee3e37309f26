import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { idempotentAnswer } from '../../platform/http/idempotency.ts';
import { CreateTopupBody, ListTopupsQuery, Topup, TopupIdParams, TopupList } from './topups.schema.ts';

const tags = ['wallet'];
const userAuth = [{ apiKey: [], accessToken: [] }];

/** Wallet top-ups by mobile money (docs/spec/money-in.md), and the providers' callbacks. */
export default async function topupsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const topups = app.services.topups;

  app.post(
    '/wallet/topups',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: "Top up the signed-in customer's wallet by mobile money",
        description: [
          "Asks `phoneNumber`'s mobile-money account (through `provider`) for `amount`: the payer approves on their phone. The answer is 202 with the top-up PENDING at once: the top-up and its provider reference are committed first, the provider is called after. The wallet is credited exactly once when the provider says SUCCESSFUL (by callback or by the poller); FAILED with the provider's reason otherwise, or TIMEOUT after 15 minutes. Test mode always uses the providers' sandbox (numbers decide the outcome: see `/docs`).",
          "Errors: `amount_invalid`, `currency_unsupported` (400, also a currency the provider does not move), `provider_unsupported` (400, also a provider approved on its own page: top-ups go through providers that prompt on the phone), `phone_invalid` (400, not a mobile number of the merchant's country, or of its own with `+`/`00`; or not served by the provider), `amount_out_of_bounds` (400, outside the provider's bounds for one payment), `limit_exceeded` (422: 5 top-ups already wait for the provider), `customer_limit_exceeded` (403: over the customer balance, daily or monthly top-up cap; `limit` and `value` say which), `provider_unavailable` (503: the provider is not configured for this mode). Send an `Idempotency-Key`: a retry replays the first answer and never asks the payer twice.",
        ].join('\n\n'),
        security: userAuth,
        body: CreateTopupBody,
        response: { 202: Topup },
      },
    },
    async (request, reply) => reply.code(202).send(await topups.create(request.merchant, request.user, request.body, idempotentAnswer(request))),
  );

  app.get(
    '/wallet/topups',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: "The signed-in customer's top-ups started through this merchant, newest first",
        description: "Only the top-ups started with this merchant's key: a merchant never sees what its customer did with another merchant.",
        security: userAuth,
        querystring: ListTopupsQuery,
        response: { 200: TopupList },
      },
    },
    async (request) => topups.list(request.merchant, request.user, request.query),
  );

  app.get(
    '/wallet/topups/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        summary: 'A top-up of the signed-in customer',
        description: "404 `not_found` for a top-up started through another merchant's key, exactly as for an unknown id.",
        security: userAuth,
        params: TopupIdParams,
        response: { 200: Topup },
      },
    },
    async (request) => topups.retrieve(request.merchant, request.user, request.params.id),
  );
}
