import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { assertTestMode } from '../../platform/http/auth.ts';
import { FundWalletBody, Wallet } from './ledger.schema.ts';

/** The user's wallet (docs/spec/endpoints.md) and the test-mode funding helper. (The merchant's balance: modules/balances.) */
export default async function ledgerRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const users = app.services.users;

  app.get(
    '/wallet',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['wallet'],
        summary: "The signed-in user's balances and their recent movements with this merchant",
        description:
          'API key and the user access token (`Authorization: Bearer <jwt>` from `POST /auth/web`). ' +
          "The balances are the customer's whole wallet; the movements are only those made with the merchant whose key is used " +
          '(its payments, their refunds, the top-ups started through it, its test funding). ' +
          "The customer's whole history across merchants is on their own page, `/account` on this server (`/account/test` in test mode), where they sign in with their password and a code by SMS.",
        security: [{ apiKey: [], accessToken: [] }],
        response: { 200: Wallet },
      },
    },
    async (request) => users.wallet(request.merchant, request.user),
  );

  app.post(
    '/test/wallets/fund',
    {
      config: { auth: 'sk', access: 'customers:write' },
      schema: {
        tags: ['test helpers'],
        summary: "Add money to a test user's wallet",
        description:
          'Moves `amount` from the test funding account into the wallet (a balanced ledger transfer of kind `funding`) and answers the wallet. Test mode only (404 `not_found` with live keys). Errors: `amount_invalid`, `currency_unsupported`, `not_found` (no such user for this merchant and mode).',
        security: [{ apiKey: [], secretKey: [] }],
        body: FundWalletBody,
        response: { 200: Wallet },
      },
    },
    async (request) => {
      assertTestMode(request);
      return users.fundTestWallet(request.merchant, request.body);
    },
  );
}
