import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { sendCsv } from '../../platform/http/dashboard-api.ts';
import { need, tags } from './operators.http.ts';
import { EmptyBody, FeesQuery, LedgerVerification, OperatorFees, OperatorMoney, ReconciliationRunList } from './operators.schema.ts';

/** The platform's money: totals, fee revenue (JSON and CSV), reconciliations, the ledger check. */
export async function operatorMoneyRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const operators = app.services.operators;

  app.get(
    '/money',
    {
      config: need('money:read'),
      schema: { tags, summary: "The platform's money per mode and currency, by ledger account kind", response: { 200: OperatorMoney } },
    },
    async () => operators.money(),
  );

  app.get(
    '/money/fees',
    {
      config: need('money:read'),
      schema: {
        tags,
        summary: "The platform's fee revenue per UTC day, mode, currency and merchant, from the ledger's fee revenue accounts",
        description:
          'Fees taken less fees given back by refunds, in [from, to): `to` is the end of today (UTC) when left out, `from` 30 days before `to` when `from` is left out, 366 days at most (400 `validation_error` otherwise).',
        querystring: FeesQuery,
        response: { 200: OperatorFees },
      },
    },
    async (req) => operators.fees(req.query),
  );

  app.get(
    '/money/fees.csv',
    {
      config: need('money:read'),
      schema: {
        tags,
        summary: 'The same fee revenue report as a CSV download (one row per day, mode, currency and merchant)',
        querystring: FeesQuery,
        produces: ['text/csv'],
      },
    },
    async (req, reply) => {
      // The period is checked before the first byte: a bad one is a problem+json 400, not a broken file.
      const stream = operators.feesCsv(req.query);
      return sendCsv(reply, `caisse-fees-${req.query.mode ?? 'all'}-${req.query.from ?? 'start'}-${req.query.to ?? 'now'}`, stream);
    },
  );

  app.get(
    '/reconciliation',
    {
      config: need('money:read'),
      schema: {
        tags,
        summary: 'The newest reconciliation of each provider and mode (`caisse reconcile` records each run): its result and counts',
        response: { 200: ReconciliationRunList },
      },
    },
    async () => operators.reconciliations(),
  );

  app.post(
    '/ledger/verify',
    {
      config: need('ledger:verify'),
      schema: { tags, summary: 'Run the ledger check now (as `npx caisse ledger verify`)', body: EmptyBody, response: { 200: LedgerVerification } },
    },
    async (req) => operators.verifyLedger(req.operatorSession),
  );
}
