import { isLanguage } from '@caisse/intl';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { idempotentAnswer } from '../../platform/http/idempotency.ts';
import { MAX_WAIT_SECONDS } from './intents.waiters.ts';
import {
  CreatedIntent,
  CreateIntentBody,
  Intent,
  IntentIdParams,
  IntentList,
  ListIntentsQuery,
  SessionIntent,
  SessionIntentQuery,
  SessionTokenParams,
} from './intents.schema.ts';

const tags = ['payment intents'];
/** When no more payers may wait: when to read again (the client's old polling pace). */
const BUSY_RETRY_AFTER_SECONDS = 2;
const merchantSecurity = [{ apiKey: [], secretKey: [] }];
const idempotencyNote =
  'Send an `Idempotency-Key` header to make a retry safe: the same key and body within 24 hours replays this answer (`Idempotent-Replayed: true`).';

/** Payment intents (docs/spec/endpoints.md, docs/spec/payment-intents.md): the merchant's server creates, reads, lists and cancels; the browser reads by session token. */
export default async function intentsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const intents = app.services.intents;

  app.post(
    '/gateway',
    {
      config: { auth: 'sk', access: 'payments:write', idempotency: 'with-transaction', refusedWhenFrozen: true },
      schema: {
        tags,
        summary: 'Create a payment intent',
        description: [
          "Creates a PENDING intent for `amount` in `currency`, valid for `expiresIn` seconds (default: the merchant's setting, 30 minutes).",
          'The answer carries the `sessionToken` (`ps_…`) for the browser: **this is the only answer that ever shows it** — Caisse stores only its SHA-256, so `GET /gateway/{id}` cannot return it.',
          'Errors: `amount_invalid` (not a string; negative, zero, too many decimals for the currency, exponent, spaces, over 999 999 999 999 minor units), `currency_unsupported` (not XAF, XOF, EUR or USD; or one your country’s payers and routes do not take: your country’s currency, XAF in Cameroon and XOF in West Africa, and those a route there takes, such as a card route’s EUR or USD; `accepted` lists them), `metadata_invalid`, `parameter_unknown`, `validation_error` (description over 1 000 characters, expiresIn outside 300–86 400).',
          idempotencyNote,
        ].join('\n\n'),
        security: merchantSecurity,
        body: CreateIntentBody,
        response: { 201: CreatedIntent },
      },
    },
    async (request, reply) => {
      const created = await intents.create(request.merchant, request.body, idempotentAnswer(request));
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/gateway/sessions/:sessionToken',
    {
      config: { auth: 'pk' },
      schema: {
        tags,
        summary: 'Retrieve an intent by its session token (client operation)',
        description: [
          'For the browser, with the API key alone. The answer leaves out `metadata` and `sessionToken`: they are for the merchant, and adds `merchantLanguage`, the language a checkout falls back to. An intent past its `expiresAt` reads EXPIRED at once: start a new intent. A token of another merchant or mode is 404 `not_found`.',
          `Waiting for the payer (a long-poll): with \`status\` (the status the client has) and \`wait\` (seconds, at most ${MAX_WAIT_SECONDS}), the answer is held while the intent still reads \`status\`: it comes as soon as the intent changes (its status, or its \`attempts\` and \`lastError\`), at its \`expiresAt\` for a PENDING intent, or after \`wait\` seconds (its last fifth: deadlines are spread) with the intent unchanged. Read again at once with the status of the answer. The answer to a wait carries \`Caisse-Wait: held\`; when the server holds as many waiting clients as it may, it comes at once with \`Caisse-Wait: busy\` and \`Retry-After\` (seconds): read again after it.`,
        ].join('\n\n'),
        security: [{ apiKey: [] }],
        params: SessionTokenParams,
        querystring: SessionIntentQuery,
        response: { 200: SessionIntent },
      },
    },
    async (request, reply) => {
      // The payer hanging up releases their waiter (the response's close: the request's comes once its body is read).
      const hangUp = new AbortController();
      const onClose = () => hangUp.abort();
      reply.raw.once('close', onClose);
      let answer: Awaited<ReturnType<typeof intents.awaitBySessionToken>>;
      try {
        answer = await intents.awaitBySessionToken(request.merchant, request.params.sessionToken, {
          status: request.query.status,
          waitSeconds: request.query.wait,
          signal: hangUp.signal,
        });
      } finally {
        reply.raw.off('close', onClose);
      }
      // Says the wait was understood (an older server ignores it and answers at once): a client
      // reads again at once after `held`, after Retry-After when `busy`.
      if (request.query.status !== undefined && request.query.wait) reply.header('caisse-wait', answer.busy ? 'busy' : 'held');
      if (answer.busy) reply.header('retry-after', String(BUSY_RETRY_AFTER_SECONDS));
      const intent = answer.intent;
      const language = request.merchant.merchantLanguage;
      return isLanguage(language) ? { ...intent, merchantLanguage: language } : intent;
    },
  );

  app.get(
    '/gateway/:id',
    {
      config: { auth: 'sk', access: 'payments:read' },
      schema: {
        tags,
        summary: 'Retrieve a payment intent',
        description:
          "The intent with its metadata (not its session token: it is shown once, at creation). An intent past its `expiresAt` reads EXPIRED at once, before the sweeper records it. Another merchant's or mode's id is 404 `not_found`.",
        security: merchantSecurity,
        params: IntentIdParams,
        response: { 200: Intent },
      },
    },
    async (request) => intents.retrieve(request.merchant, request.params.id),
  );

  app.get(
    '/gateway',
    {
      config: { auth: 'sk', access: 'payments:read' },
      schema: {
        tags,
        summary: 'List payment intents',
        description:
          'Newest first, `limit` per page (1–100, default 20). For the next page pass the last id as `startingAfter`. `status` filters as a reader sees it: `EXPIRED` includes PENDING intents past their expiresAt not yet swept, and `PENDING` leaves them out.',
        security: merchantSecurity,
        querystring: ListIntentsQuery,
        response: { 200: IntentList },
      },
    },
    async (request) => intents.list(request.merchant, request.query),
  );

  app.post(
    '/gateway/:id/cancel',
    {
      config: { auth: 'sk', access: 'payments:write' },
      schema: {
        tags,
        summary: 'Cancel an open payment intent',
        description: [
          'Moves a PENDING intent to CANCELED and records `payment.canceled`. No body is needed (an empty object is accepted).',
          'An intent whose `expiresAt` has passed cannot be canceled: the answer is 409 `intent_state_invalid` with `intentStatus: "EXPIRED"`, and the intent is recorded EXPIRED with its `payment.expired` event if the sweeper had not done it yet (so the merchant gets exactly one final event either way). Any other state (PROCESSING, SUCCEEDED, FAILED, CANCELED, refunded) is 409 `intent_state_invalid` too.',
          idempotencyNote,
        ].join('\n\n'),
        security: merchantSecurity,
        params: IntentIdParams,
        body: Type.Object({}, { additionalProperties: false, description: 'Optional; no fields.' }),
        response: { 200: Intent },
      },
    },
    async (request) => intents.cancel(request.merchant, request.params.id, idempotentAnswer(request)),
  );
}
