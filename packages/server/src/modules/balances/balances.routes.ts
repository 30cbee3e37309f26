import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { assertTestMode } from '../../platform/http/auth.ts';
import { BalanceTransactionList, ExportBalanceTransactionsQuery, ListBalanceTransactionsQuery, MerchantBalance } from './balances.schema.ts';

const tags = ['balance'];
const security = [{ apiKey: [], secretKey: [] }];

/** The merchant's balance and its statement (docs/spec/money-out.md). */
export default async function balancesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const balances = app.services.balances;

  app.get(
    '/balance',
    {
      config: { auth: 'sk', access: 'balance:read' },
      schema: {
        tags,
        summary: "The merchant's balance per currency, in the key's mode: available, pending and reserved",
        description:
          "A charge's net (amount − fee) is `pending` for the merchant's settlement delay (default 1 day; `caisse merchants settlement mch_… --delay-days N`, 0: available within seconds), then `available`. Payouts take from `available`; refunds take from `pending` while the payment is not settled, else from `available`, which may then go below zero. " +
          "With a rolling reserve (set by the operator: `caisse merchants reserve mch_… --percent 10 --days 90`), that share of each charge's net is `reserved` instead, and released to `available` that many days after the charge (`nextReleaseOn`); a refund that `available` cannot cover draws on the reserve first.",
        security,
        response: { 200: MerchantBalance },
      },
    },
    async (request) => balances.balance(request.merchant),
  );

  app.get(
    '/balance/transactions',
    {
      config: { auth: 'sk', access: 'balance:read' },
      schema: {
        tags,
        summary: "The merchant's balance statement, newest first",
        description:
          "Every movement of the merchant's money: `charge`, `fee`, `refund`, `payout`, `payout_reversal`, `refund_reversal`, `late_payment`, `adjustment`, `reserve` (a charge's share held by the rolling reserve, with its release date in the description), `reserve_release` (reserve money back to available, on its date or drawn by a refund), each with `balanceAfter` (available + pending right after it), whether it is `pending` or `available`, and `availableOn`. Moving a settled amount from pending to available is not a movement (the total does not change). Filters: `type`, `currency`, `from`, `to` (dates or RFC 3339 times). Errors: `validation_error` (a bad date), `currency_unsupported`, `not_found` (an unknown `startingAfter`).",
        security,
        querystring: ListBalanceTransactionsQuery,
        response: { 200: BalanceTransactionList },
      },
    },
    async (request) => balances.list(request.merchant, request.query),
  );

  app.get(
    '/balance/transactions.csv',
    {
      config: { auth: 'sk', access: 'balance:read' },
      schema: {
        tags,
        summary: 'The balance statement of a period as CSV',
        description:
          'RFC 4180 (comma-separated, CRLF, quoted where needed, UTF-8), a header row, oldest first: `id,created_at,type,source,description,currency,amount,balance_after,status,available_on,connector,provider_account`; the last two say how Caisse reached the provider for the row’s payment, refund or payout (the connector and the provider account, `pac_…`; empty for the wallet and for rows of no payment). Amounts are decimal strings in major units, times ISO 8601 UTC. Same filters as the list; streamed, so any period can be exported.',
        security,
        querystring: ExportBalanceTransactionsQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const stream = balances.exportCsv(request.merchant, request.query);
      const name = `balance-${request.merchant.mode}-${request.query.from ?? 'start'}-${request.query.to ?? 'now'}.csv`.replace(/[^A-Za-z0-9._-]/g, '_');
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${name}"`).send(stream);
    },
  );

  app.post(
    '/test/balance/settle',
    {
      config: { auth: 'sk', access: 'balance:write' },
      schema: {
        tags: ['test helpers'],
        summary: "Make the merchant's pending test money available now",
        description:
          'Settles every pending test-mode amount of the merchant at once, as if its settlement delay had passed, and answers the balance. Test mode only (404 `not_found` with live keys).',
        security,
        response: { 200: MerchantBalance },
      },
    },
    async (request) => {
      assertTestMode(request);
      await balances.settleNow(request.merchant);
      return balances.balance(request.merchant);
    },
  );
}
