import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { assertTestMode, callerOf, dashboardTags as tags, ModeParams, sendCsv, sessionRoute } from '../../platform/http/dashboard-api.ts';
import { onReplica } from '../../platform/db.ts';
import { scopeOf } from '../../platform/tenancy.ts';
import { BalanceTransactionList, ExportBalanceTransactionsQuery, ListBalanceTransactionsQuery, MerchantBalance } from './balances.schema.ts';

/**
 * The dashboard's Balance page (the balance, the statement and its CSV, as the API's) and the Test
 * data page's "settle now", for the signed-in merchant in the mode of the path.
 */
export function balancesDashboardRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const balances = app.services.balances;
  /** The statement is a heavy read: the replica may answer it (DATABASE_READ_URL, docs/scaling.md). */
  const reads = app.deps.reads;

  app.get(
    '/:mode/balance',
    {
      config: sessionRoute('balance:read'),
      schema: { tags, summary: "The merchant's balance per currency", params: ModeParams, response: { 200: MerchantBalance } },
    },
    async (req) => balances.balance(scopeOf(callerOf(req))),
  );

  app.get(
    '/:mode/balance/transactions',
    {
      config: sessionRoute('balance:read'),
      schema: {
        tags,
        summary: 'The balance statement, newest first, by type, currency and period (as GET /balance/transactions)',
        params: ModeParams,
        querystring: ListBalanceTransactionsQuery,
        response: { 200: BalanceTransactionList },
      },
    },
    async (req) => onReplica(reads, callerOf(req).merchantId, () => balances.list(scopeOf(callerOf(req)), req.query)),
  );

  app.get(
    '/:mode/balance/transactions.csv',
    {
      config: sessionRoute('balance:read'),
      schema: {
        tags,
        summary: 'The balance statement of a period as a CSV download (as GET /balance/transactions.csv)',
        params: ModeParams,
        querystring: ExportBalanceTransactionsQuery,
        produces: ['text/csv'],
      },
    },
    async (req, reply) => {
      // The query is checked before the first byte: a bad period is a problem+json 400, not a broken file.
      const stream = onReplica(reads, callerOf(req).merchantId, () => balances.exportCsv(scopeOf(callerOf(req)), req.query));
      return sendCsv(reply, `caisse-balance-${req.params.mode}-${req.query.from ?? 'start'}-${req.query.to ?? 'now'}`, stream);
    },
  );

  app.post(
    '/:mode/balance/settle',
    {
      config: sessionRoute('testdata:write'),
      schema: {
        tags,
        summary: "Make the merchant's pending test money available now (as POST /test/balance/settle; 404 in live mode)",
        params: ModeParams,
        response: { 200: MerchantBalance },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      assertTestMode(caller, 'Settling pending money early');
      await balances.settleNow(scopeOf(caller));
      return balances.balance(scopeOf(caller));
    },
  );
}
