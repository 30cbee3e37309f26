/** Test helpers for webhooks: local receivers on 127.0.0.1 and events made with recordEvent. */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createEventsService, type EventType } from '../src/modules/events/index.ts';
import type { Intent } from '../src/modules/intents/index.ts';
import { deliveriesOutbox, MAX_ENDPOINTS } from '../src/modules/webhooks/index.ts';
import type { Deps } from '../src/platform/deps.ts';
import type { Tx } from '../src/platform/db.ts';
import type { KeyMode } from '../src/platform/tenancy.ts';

/** Records a payment event as the intents module does (with its webhook deliveries), for tests. */
export function recordEvent(
  tx: Tx,
  deps: Pick<Deps, 'clock' | 'ids'>,
  input: { merchantId: string; mode: KeyMode; type: EventType; apiVersion: string; paymentIntent: Intent },
) {
  const events = createEventsService({ ...deps, db: tx, wakeups: undefined }, { subscriber: deliveriesOutbox(() => deps.ids('delivery'), MAX_ENDPOINTS) });
  const { paymentIntent, ...rest } = input;
  return events.record(tx, { ...rest, intentId: paymentIntent.id, data: { paymentIntent } });
}
import type { TestContext } from './harness.ts';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface Receiver {
  url: string;
  received: Received[];
  /** What the receiver does with the next requests (default: 200 "ok"). */
  handler: Handler;
  close(): Promise<void>;
}

export const ok: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('ok');
};

export async function startReceiver(handler: Handler = ok, port = 0): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const receiver: Receiver = {
    url: '',
    received: [],
    handler,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      receiver.received.push({ headers: req.headers, body, path: req.url ?? '/' });
      receiver.handler(req, res, body);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

/**
 * A payment intent in the shape events carry (intents.schema.ts `Intent`), for events recorded
 * without a real intent behind them.
 */
export function testIntent({ id, ...fields }: Partial<Intent> & Pick<Intent, 'id'>): Intent {
  // In the schema's order (id first), as the intents module writes it: GET /events re-serialises
  // by the schema and must answer the stored bytes.
  return {
    id,
    object: 'payment_intent',
    amount: '5000',
    currency: 'XAF',
    description: null,
    status: 'SUCCEEDED',
    expiresAt: '2026-11-01T10:30:00.000Z',
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
    livemode: false,
    amountRefunded: '0',
    lastError: null,
    attempts: 1,
    metadata: {},
    fee: '75',
    net: '4925',
    ...fields,
  };
}

let intentSeq = 0;

/** Records one event the way the intents module does: inside a transaction. */
export async function makeEvent(
  ctx: TestContext,
  merchantId: string,
  opts: { type?: EventType; mode?: 'test' | 'live'; metadata?: Record<string, string> } = {},
) {
  intentSeq += 1;
  return ctx.deps.db.transaction().execute((tx) =>
    recordEvent(tx, ctx.deps, {
      merchantId,
      mode: opts.mode ?? 'test',
      type: opts.type ?? 'payment.completed',
      apiVersion: '2026-11-01',
      paymentIntent: testIntent({
        id: `pi_test${String(intentSeq).padStart(6, '0')}`,
        livemode: opts.mode === 'live',
        metadata: opts.metadata ?? { orderId: `order-${intentSeq}`, note: 'café ✓' },
      }),
    }),
  );
}
