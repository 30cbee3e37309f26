import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { callerOf, dashboardTags as tags, ModeIdParams, ModeParams, sessionRoute } from '../../platform/http/dashboard-api.ts';
import { CreatePayoutBody, ListPayoutsQuery, Payout, PayoutList, PayoutSchedule, PayoutScheduleBody } from './payouts.schema.ts';

/**
 * The dashboard's Payouts page: the payouts and the automatic schedule of the signed-in merchant
 * in the mode of the path, as the API's with a secret key. A payout's audit entry commits with it.
 */
export function payoutsDashboardRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { payouts, merchants } = app.services;

  app.get(
    '/:mode/payouts',
    {
      config: sessionRoute('payouts:read'),
      schema: { tags, summary: 'Payouts, newest first', params: ModeParams, querystring: ListPayoutsQuery, response: { 200: PayoutList } },
    },
    async (req) => payouts.list(callerOf(req), req.query),
  );

  app.get(
    '/:mode/payouts/:id',
    { config: sessionRoute('payouts:read'), schema: { tags, summary: 'A payout', params: ModeIdParams, response: { 200: Payout } } },
    async (req) => payouts.retrieve(callerOf(req), req.params.id),
  );

  app.post(
    '/:mode/payouts',
    {
      config: sessionRoute('payouts:write'),
      schema: {
        tags,
        summary: 'Pay out part of the available balance to a mobile-money number (as POST /payouts: 202, PENDING)',
        description:
          'Errors as POST /payouts: `amount_invalid`, `currency_unsupported`, `provider_unsupported`, `phone_invalid` (400); `balance_insufficient` (409); `provider_unavailable` (503: no connector for the mode).',
        params: ModeParams,
        body: CreatePayoutBody,
        response: { 202: Payout },
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      // The dashboard has no API key, so the API's frozen check does not see it: asked here.
      await merchants.assertNotFrozen(caller.merchantId);
      const payout = await payouts.create(
        caller,
        req.body,
        req.dashboardAudit.withChange(caller.mode, 'payout.created', (body) => {
          const p = body as { id: string; amount: string; currency: string };
          return { targetId: p.id, details: { amount: p.amount, currency: p.currency } };
        }),
      );
      return reply.code(202).send(payout);
    },
  );

  app.get(
    '/:mode/payout-schedule',
    {
      config: sessionRoute('payouts:read'),
      schema: { tags, summary: 'The automatic payout schedule of the mode', params: ModeParams, response: { 200: PayoutSchedule } },
    },
    async (req) => payouts.schedule(callerOf(req)),
  );

  app.put(
    '/:mode/payout-schedule',
    {
      config: sessionRoute('payouts:write'),
      schema: {
        tags,
        summary: 'Set the automatic payout schedule (as PUT /payout-schedule)',
        params: ModeParams,
        body: PayoutScheduleBody,
        response: { 200: PayoutSchedule },
      },
    },
    async (req) => {
      const schedule = await payouts.setSchedule(callerOf(req), req.body);
      await req.dashboardAudit.record(app.deps.db, { mode: req.params.mode, action: 'payout_schedule.changed', details: { ...req.body } });
      return schedule;
    },
  );
}
