import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { need, tags } from './operators.http.ts';
import {
  CustomerIdParams,
  CustomerLimitsList,
  CustomerLimitsSchema,
  CustomerLock,
  CustomerLockBody,
  CustomerPasswordReset,
  CustomersQuery,
  EmptyBody,
  OperatorCustomerList,
  SetCustomerLimitsBody,
} from './operators.schema.ts';

/** Support's customers: lookup, lock, password reset, and the customer limits (decision 0042). */
export async function operatorCustomersRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const operators = app.services.operators;

  app.get(
    '/customers',
    {
      config: need('customers:read'),
      schema: {
        tags,
        summary: 'Look a customer up by phone number: each mode’s account, lock, wallet, latest movements across merchants, limits',
        querystring: CustomersQuery,
        response: { 200: OperatorCustomerList },
      },
    },
    async (req) => operators.customers(req.operatorSession, req.query.phone),
  );

  for (const lock of [true, false]) {
    app.post(
      lock ? '/customers/:id/lock' : '/customers/:id/unlock',
      {
        config: need('customers:lock'),
        schema: {
          tags,
          summary: lock
            ? 'Lock a customer: sign-in answers 403 `customer_locked` and their access tokens stop working'
            : 'Unlock a customer: they sign in again',
          params: CustomerIdParams,
          body: CustomerLockBody,
          response: { 200: CustomerLock },
        },
      },
      async (req) => operators.lockCustomer(req.operatorSession, req.params.id, lock, req.body.reason),
    );
  }

  app.post(
    '/customers/:id/password-reset',
    {
      config: need('customers:reset'),
      schema: {
        tags,
        summary: 'Send the customer the password reset code by SMS, the one POST /auth/password-reset sends',
        description:
          'The customer then sets a new password with POST /auth/password-reset/confirm (the checkout or their account page). Unknown customer: 404 `not_found`; too many codes sent to the number: 429 `rate_limited`.',
        params: CustomerIdParams,
        body: EmptyBody,
        response: { 200: CustomerPasswordReset },
      },
    },
    async (req) => operators.sendPasswordReset(req.operatorSession, req.params.id),
  );

  // ---- customer limits ----------------------------------------------------------------------------

  app.get(
    '/customer-limits',
    {
      config: need('customers:read'),
      schema: { tags, summary: 'The customer limits per mode, tier and currency', response: { 200: CustomerLimitsList } },
    },
    async () => operators.customerLimits(),
  );

  app.put(
    '/customer-limits',
    {
      config: need('customers:limits'),
      schema: {
        tags,
        summary: "Set a tier's caps in a mode and currency: wallet balance, top-ups per day and per month, one payment",
        description:
          'Over a cap, a top-up or a wallet payment answers 403 `customer_limit_exceeded` with `limit` (its name) and `value`. Tier 0 is a customer with a verified phone number.',
        body: SetCustomerLimitsBody,
        response: { 200: CustomerLimitsSchema },
      },
    },
    async (req) => operators.setCustomerLimits(req.operatorSession, req.body),
  );
}
