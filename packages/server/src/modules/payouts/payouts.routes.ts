import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { idempotentAnswer } from '../../platform/http/idempotency.ts';
import { CreatePayoutBody, ListPayoutsQuery, Payout, PayoutIdParams, PayoutList, PayoutSchedule, PayoutScheduleBody } from './payouts.schema.ts';

const tags = ['payouts'];
const security = [{ apiKey: [], secretKey: [] }];

/** Payouts to mobile money (docs/spec/money-out.md), their schedule, and the providers' disbursement callbacks. */
export default async function payoutsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const payouts = app.services.payouts;

  app.post(
    '/payouts',
    {
      config: { auth: 'sk', access: 'payouts:write', refusedWhenFrozen: true },
      schema: {
        tags,
        summary: 'Pay out part of the available balance to a mobile-money number',
        description: [
          "Takes `amount` out of the available balance at once and sends it to `destination.phoneNumber` through the provider (one whose `capabilities.disburse` is true in `GET /payment-methods/settings`). The answer is 202 with the payout PENDING: the payout, the debit and the provider reference commit first, the provider is called after. PAID when the provider says SUCCESSFUL (`payout.paid`); FAILED with the provider's reason otherwise, the money back in `available` (`payout.failed`). While the provider cannot be reached the payout stays PENDING and is asked about again: never paid twice. Test mode always uses the providers' sandbox.",
          "Errors: `amount_invalid`, `currency_unsupported` (also a currency the provider does not move), `provider_unsupported`, `destination_unsupported` (400: the provider only collects, `capabilities.disburse` false), `phone_invalid` (also a number the provider does not serve), `amount_out_of_bounds` (400: outside the provider's bounds for one payment), `description_invalid` (400: outside the provider's message rules); `balance_insufficient` (409: `available` holds less, is negative, or has no such currency; concurrent payouts never overdraw it); `provider_unavailable` (503). Send an `Idempotency-Key`: a retry replays the first answer and never pays twice.",
        ].join('\n\n'),
        security,
        body: CreatePayoutBody,
        response: { 202: Payout },
      },
    },
    async (request, reply) => reply.code(202).send(await payouts.create(request.merchant, request.body, idempotentAnswer(request))),
  );

  app.get(
    '/payouts',
    {
      config: { auth: 'sk', access: 'payouts:read' },
      schema: { tags, summary: 'Payouts, newest first', security, querystring: ListPayoutsQuery, response: { 200: PayoutList } },
    },
    async (request) => payouts.list(request.merchant, request.query),
  );

  app.get(
    '/payouts/:id',
    { config: { auth: 'sk', access: 'payouts:read' }, schema: { tags, summary: 'A payout', security, params: PayoutIdParams, response: { 200: Payout } } },
    async (request) => payouts.retrieve(request.merchant, request.params.id),
  );

  app.get(
    '/payout-schedule',
    {
      config: { auth: 'sk', access: 'payouts:read' },
      schema: { tags, summary: "The automatic payout schedule, in the key's mode", security, response: { 200: PayoutSchedule } },
    },
    async (request) => payouts.schedule(request.merchant),
  );

  app.put(
    '/payout-schedule',
    {
      config: { auth: 'sk', access: 'payouts:write' },
      schema: {
        tags,
        summary: 'Set the automatic payout schedule',
        description:
          '`daily` (00:00 UTC) or `weekly` (00:00 UTC on `weeklyAnchor`, default monday): a payout of the whole available balance of each currency that reaches `minimumAmount` (default: anything above zero) to `destination`. No payout runs while the balance is zero or negative. `manual`: only POST /payouts.',
        security,
        body: PayoutScheduleBody,
        response: { 200: PayoutSchedule },
      },
    },
    async (request) => payouts.setSchedule(request.merchant, request.body),
  );
}
