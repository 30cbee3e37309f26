import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import { SECOND } from '../../platform/clock.ts';
import { ApiError } from '../../platform/errors.ts';
import { assertTestMode } from '../../platform/http/auth.ts';
import { EVENT_TYPES, type EventType } from '../events/index.ts';
import { EVENT_ID } from '../../platform/id-cursor.ts';
import type { ReadyMessage } from './listen.schema.ts';
import { StreamHeaders, StreamQuery } from './listen.schema.ts';

/** How often an open stream looks for new events (real time). */
export const POLL_INTERVAL_MS = 250;
/** A comment line this often keeps proxies from closing an idle stream and lets clients notice a dead one. */
export const HEARTBEAT_MS = 15 * SECOND;
/** Streams open at once per merchant in one server process. */
export const MAX_STREAMS_PER_MERCHANT = 5;
/** A client that reads slower than events come is cut off past this much unread output (it resumes with Last-Event-ID). */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

function parseTypes(raw: string | undefined): EventType[] {
  if (raw === undefined || raw.trim() === '' || raw.trim() === '*') return [];
  const types = raw.split(',').map((t) => t.trim());
  const unknown = types.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length > 0) {
    throw new ApiError('validation_error', `Unknown event type ${unknown.map((t) => `"${t}"`).join(', ')}; known: ${EVENT_TYPES.join(', ')}`, {
      param: 'events',
      errors: unknown.map(() => ({ param: 'events', message: `events must list types among ${EVENT_TYPES.join(', ')}` })),
    });
  }
  return [...new Set(types)] as EventType[];
}

/** An Accept header that names text/event-stream (or text/*), not only the `*\/*` of a generic client. */
function acceptsEventStream(accept: string | undefined): boolean {
  return accept !== undefined && /(^|,)\s*text\/(event-stream|\*)\s*(;|,|$)/i.test(accept);
}

function sse(fields: { id?: string; event?: string; data: string }): string {
  return `${fields.id ? `id: ${fields.id}\n` : ''}${fields.event ? `event: ${fields.event}\n` : ''}data: ${fields.data}\n\n`;
}

/**
 * `GET /listen/stream`: this merchant's test-mode events as Server-Sent Events, as they commit
 * (docs/spec/running.md, `caisse listen`). Open streams end when the server shuts down; clients resume
 * with Last-Event-ID and lose nothing.
 */
export default async function listenRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const listen = app.services.listen;
  const open = new Set<{ end(): void }>();
  const perMerchant = new Map<string, number>();

  // On shutdown every stream ends cleanly first, so the server is not held open by them.
  app.addHook('preClose', async () => {
    for (const stream of open) stream.end();
  });

  app.get(
    '/listen/stream',
    {
      config: { auth: 'sk', access: 'events:read' },
      schema: {
        tags: ['listen'],
        summary: "Stream this merchant's test events (Server-Sent Events), for `caisse listen`",
        description: [
          'Test mode only (404 `not_found` with live keys). Send `Accept: text/event-stream` (406 `not_acceptable` otherwise: the answer never ends, so a client must ask for a stream). `events` filters types (400 `validation_error` for an unknown one). At most 5 streams per merchant at once per server process (422 `limit_exceeded`).',
          'The first message is `event: ready` with a `listen_session` object as `data` and a cursor as `id`. Then one message per event as it commits: `id` = event id, `event` = its type, `data` = the event JSON exactly as webhooks deliver it (sign those bytes). A `: ping` comment comes every 15 s when nothing else does.',
          'Reconnect with `Last-Event-ID` (the `id` of the last message received, the `ready` cursor included) and nothing committed since is lost: every event after that position is sent, and possibly some from up to 30 s before it, so drop ids you have already seen (events are at least once, like webhooks). Without it the stream starts at the moment of the request. The server ends streams when it shuts down and when a client falls several megabytes behind; reconnect.',
        ].join('\n\n'),
        security: [{ apiKey: [], secretKey: [] }],
        querystring: StreamQuery,
        headers: StreamHeaders,
        response: {
          200: {
            description: 'A text/event-stream that stays open',
            content: { 'text/event-stream': { schema: Type.String() } },
          },
        },
      },
    },
    async (request, reply) => {
      assertTestMode(request);
      if (!acceptsEventStream(request.headers.accept)) {
        throw new ApiError('not_acceptable', 'This endpoint answers only with a never-ending text/event-stream: send Accept: text/event-stream', {
          param: 'accept',
        });
      }
      const types = parseTypes(request.query.events);
      const lastEventId = request.headers['last-event-id']?.trim() || undefined;
      if (lastEventId !== undefined && !EVENT_ID.test(lastEventId)) {
        throw new ApiError('validation_error', 'Last-Event-ID must be the id of a message of this stream (evt_…)', {
          param: 'last-event-id',
          errors: [{ param: 'last-event-id', message: 'last-event-id must be an event id (evt_ and 26 characters)' }],
        });
      }
      const { merchantId } = request.merchant;
      const count = perMerchant.get(merchantId) ?? 0;
      if (count >= MAX_STREAMS_PER_MERCHANT) {
        throw new ApiError('limit_exceeded', `At most ${MAX_STREAMS_PER_MERCHANT} event streams per merchant at once; close one first`);
      }

      const feed = listen.openFeed({ merchantId, mode: request.merchant.mode }, { types, lastEventId });
      const out = new Readable({ read() {} });
      let finished = false;
      let timer: NodeJS.Timeout | undefined;
      let lastWrite = Date.now();
      const write = (text: string) => {
        if (finished) return;
        out.push(text);
        lastWrite = Date.now();
        if (out.readableLength > MAX_BUFFERED_BYTES) handle.end();
      };
      const handle = {
        end() {
          if (finished) return;
          finished = true;
          clearTimeout(timer);
          out.push(null);
        },
      };
      const release = () => {
        finished = true;
        clearTimeout(timer);
        if (open.delete(handle)) {
          const left = (perMerchant.get(merchantId) ?? 1) - 1;
          if (left > 0) perMerchant.set(merchantId, left);
          else perMerchant.delete(merchantId);
        }
      };
      open.add(handle);
      perMerchant.set(merchantId, count + 1);
      // The response is done or its connection gone (the client left, or the stream ended).
      reply.raw.on('close', () => {
        handle.end();
        release();
      });

      const ready: ReadyMessage = {
        object: 'listen_session',
        merchantId,
        livemode: false,
        events: types,
        cursor: feed.cursor,
        resumedAfter: feed.resumedAfter,
      };
      write(`retry: 1000\n\n${sse({ id: feed.cursor, event: 'ready', data: JSON.stringify(ready) })}`);

      const tick = async () => {
        if (finished) return;
        try {
          for (const e of await feed.poll()) write(sse({ id: e.id, event: e.type, data: e.payload }));
          if (Date.now() - lastWrite >= HEARTBEAT_MS) write(': ping\n\n');
        } catch (err) {
          request.log.warn({ err }, 'listen stream could not read events; will retry');
        }
        if (!finished) timer = setTimeout(tick, POLL_INTERVAL_MS);
      };
      timer = setTimeout(tick, 0);

      reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache, no-transform')
        .header('x-accel-buffering', 'no')
        // Once a stream ends its connection is closed rather than kept alive for reuse, so a
        // closing server is not held up by the keep-alive connections of ended streams.
        .header('connection', 'close');
      // A stream is sent as it is: the 200 schema (a string) documents it, nothing serialises it.
      return reply.send(out as unknown as string);
    },
  );
}
