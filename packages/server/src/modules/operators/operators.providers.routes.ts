import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import {
  AddProviderAccountBody,
  ProviderAccountCheck,
  ProviderAccountIdParams,
  ProviderAccountList,
  ProviderAccountSchema,
} from '../provideraccounts/index.ts';
import { need, tags } from './operators.http.ts';
import { EmptyBody, OperatorProviderList } from './operators.schema.ts';

/** The providers as this server has them, and the provider accounts (decision 0075). */
export async function operatorProvidersRoutes(instance: FastifyInstance) {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const operators = app.services.operators;

  app.get(
    '/providers',
    {
      config: need('providers:read'),
      schema: {
        tags,
        summary: 'Each provider in each mode: brand, countries, currencies, capabilities, set up or not, health',
        description: 'Health is this process’s view (outcomes since it started); a setting’s value is never shown.',
        response: { 200: OperatorProviderList },
      },
    },
    async () => operators.providers(),
  );

  // ---- provider accounts (decision 0075) ---------------------------------------------------------

  app.get(
    '/provider-accounts',
    {
      config: need('providers:manage'),
      schema: {
        tags,
        summary: 'Every provider account, the platform’s included (environment variables, sandbox); credentials masked',
        response: { 200: ProviderAccountList },
      },
    },
    async () => operators.providerAccounts(),
  );

  app.post(
    '/provider-accounts',
    {
      config: need('providers:manage'),
      schema: {
        tags,
        summary: 'Add a provider account: a connector, a mode, its countries, settings and credentials (write-only)',
        body: AddProviderAccountBody,
        response: { 201: ProviderAccountSchema },
      },
    },
    async (req, reply) => reply.code(201).send(await operators.addProviderAccount(req.operatorSession, req.body)),
  );

  app.post(
    '/provider-accounts/:id/disable',
    {
      config: need('providers:manage'),
      schema: {
        tags,
        summary: 'Disable a provider account: no new request goes through it; those in flight finish through it',
        params: ProviderAccountIdParams,
        body: EmptyBody,
        response: { 200: ProviderAccountSchema },
      },
    },
    async (req) => operators.disableProviderAccount(req.operatorSession, req.params.id),
  );

  app.post(
    '/provider-accounts/:id/check',
    {
      config: need('providers:manage'),
      schema: {
        tags,
        summary: 'Check a provider account with one harmless call its credentials allow; recorded as its lastCheck',
        params: ProviderAccountIdParams,
        body: EmptyBody,
        response: { 200: ProviderAccountCheck },
      },
    },
    async (req) => operators.checkProviderAccount(req.operatorSession, req.params.id),
  );
}
