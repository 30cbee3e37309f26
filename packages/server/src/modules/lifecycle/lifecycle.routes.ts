import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { MINUTE } from '../../platform/clock.ts';
import { ApiError } from '../../platform/errors.ts';
import { clientAddress, memoryCounters } from '../../platform/http/rate-limit.ts';

/**
 * Each valid callback costs us a status read at the provider, so callbacks are limited per
 * reference (a provider sends one or two) and per client address, in this process. The
 * per-address limit is CAISSE_RATE_LIMIT_CALLBACKS (this default): a busy provider sends every
 * callback from a few addresses.
 */
export const CALLBACKS_PER_REFERENCE_PER_MINUTE = 10;
export const CALLBACKS_PER_ADDRESS_PER_MINUTE = 120;

const CallbackParams = Type.Object({
  provider: Type.String({ maxLength: 32 }),
  kind: Type.Union([Type.Literal('collection'), Type.Literal('disbursement')]),
  reference: Type.String({ maxLength: 64 }),
  token: Type.String({ maxLength: 128 }),
});

/**
 * The providers' callbacks (docs/spec/money-in.md, docs/spec/mobile-money-payments.md), for every money movement: the URL names the
 * provider, the kind and our reference, and carries our token. A callback is only a hint: the
 * lifecycle whose reference it is confirms it with a status read.
 */
export default async function connectorsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const callbacks = app.services.callbacks;
  const counters = memoryCounters(app.deps.clock);
  const perAddress = app.deps.config.security.rateLimit.callbacksPerMinute;
  app.addHook('onClose', async () => counters.close());
  // The connectors need the body as the provider sent it: Wave signs its raw bytes. Each
  // connector parses it (as JSON) after authenticating it; in this plugin only.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  // Some providers post their notification as a form (CinetPay, signed over its fields): kept raw as well.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));

  async function limit(key: string, max: number, what: string): Promise<void> {
    const { count, resetMs } = await counters.hit(key, MINUTE);
    if (count <= max) return;
    const seconds = Math.max(1, Math.ceil(resetMs / 1000));
    throw new ApiError('rate_limited', `Over ${max} callbacks per minute for ${what}; retry in ${seconds} s`, { headers: { 'retry-after': String(seconds) } });
  }

  // MTN calls back a requesttopay with PUT and a transfer with POST; both are taken for both.
  for (const method of ['PUT', 'POST'] as const) {
    app.route({
      method,
      url: '/callbacks/:provider/:kind/:reference/:token',
      config: { auth: 'none' },
      schema: {
        tags: ['providers'],
        summary: "A mobile-money provider's callback (a hint: the provider's status decides)",
        params: CallbackParams,
        hide: true,
      },
      handler: async (request, reply) => {
        const { provider, kind, reference } = request.params;
        await limit(`address:${clientAddress(request)}`, perAddress, 'this address');
        await limit(`reference:${reference}`, CALLBACKS_PER_REFERENCE_PER_MINUTE, 'this reference');
        const incoming = { url: request.url, body: request.body, headers: request.headers };
        if (!(await callbacks.handle(provider, kind, reference, incoming))) throw new ApiError('not_found', 'No request has this reference');
        return reply.code(204).send();
      },
    });
  }

  // A provider that pings its notification URL before using it (CinetPay: GET, nothing posted,
  // answered 200) gets an empty 200; nothing is looked up, so it tells nothing about a reference.
  app.route({
    method: 'GET',
    url: '/callbacks/:provider/:kind/:reference/:token',
    config: { auth: 'none' },
    schema: { tags: ['providers'], summary: "A provider's ping of its notification URL (answered 200, nothing done)", params: CallbackParams, hide: true },
    handler: async (request, reply) => {
      await limit(`address:${clientAddress(request)}`, perAddress, 'this address');
      return reply.code(200).send();
    },
  });

  // Providers that send every webhook to one URL and sign it (Wave's Wave-Signature).
  app.route({
    method: 'POST',
    url: '/callbacks/:provider',
    config: { auth: 'none' },
    schema: {
      tags: ['providers'],
      summary: "A mobile-money provider's signed webhook (a hint: the provider's status decides)",
      params: Type.Object({ provider: Type.String({ maxLength: 32 }) }),
      hide: true,
    },
    handler: async (request, reply) => {
      await limit(`address:${clientAddress(request)}`, perAddress, 'this address');
      const handled = await callbacks.handleSigned(request.params.provider, { url: request.url, body: request.body, headers: request.headers });
      if (handled === undefined) throw new ApiError('callback_invalid', 'The callback could not be authenticated');
      if (!handled) throw new ApiError('not_found', 'No request has this reference');
      return reply.code(204).send();
    },
  });
}
