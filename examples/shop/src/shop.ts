import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Caisse } from '@caisse/node';
import { build } from 'esbuild';
import { OrderBook } from './orders.ts';
import { donePage, donePath, orderPage, PRODUCT, productPage } from './page.ts';
import { handleWebhook } from './webhook.ts';

export interface ShopOptions {
  /** Where Caisse is, and the merchant's keys (the secret key never leaves this server). */
  caisse: { baseUrl: string; apiKey: string; secretKey: string };
  port?: number;
  host?: string;
  /** The shop's address as Caisse reaches it (for the webhook endpoint). Default: http://host:port. */
  publicUrl?: string;
  /** A webhook secret to use instead of registering an endpoint (e.g. one printed by `caisse listen`). */
  webhookSecret?: string;
  log?: (line: string) => void;
}

export interface Shop {
  url: string;
  orders: OrderBook;
  webhookEndpointId: string | undefined;
  close(): Promise<void>;
}

export const WEBHOOK_PATH = '/webhooks/caisse';

/** The order page's script: @caisse/react and React, bundled once at start. */
async function bundleCheckout(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./client.tsx', import.meta.url))],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    jsx: 'automatic',
    // The workspace's packages are used from their sources: no build step before a run.
    conditions: ['source'],
    define: { 'process.env.NODE_ENV': '"production"' },
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

function readBody(req: IncomingMessage, limit = 64 * 1024): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Error('body too large'));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
  res.end(body);
}

/**
 * Registers (or finds) the shop's webhook endpoint in Caisse and returns its signing secret.
 * An endpoint already registered for this URL is reused, so restarts do not pile them up.
 */
async function webhookSecretFor(caisse: Caisse, url: string): Promise<{ id: string; secret: string }> {
  const existing = await caisse.webhookEndpoints.list({ limit: 100 });
  const found = existing.data.find((e) => e.url === url);
  if (found) {
    const { secret } = await caisse.webhookEndpoints.retrieveSecret(found.id);
    if (!found.enabled) await caisse.webhookEndpoints.update(found.id, { enabled: true });
    return { id: found.id, secret };
  }
  const created = await caisse.webhookEndpoints.create({
    url,
    description: 'Mango Market orders',
    enabledEvents: ['payment.completed', 'payment.failed'],
  });
  return { id: created.id, secret: created.secret };
}

export async function startShop(options: ShopOptions): Promise<Shop> {
  const log = options.log ?? ((line: string) => process.stdout.write(`[shop] ${line}\n`));
  const caisse = new Caisse(options.caisse);
  const orders = new OrderBook();
  const seenEvents = new Set<string>();
  const script = await bundleCheckout();
  const host = options.host ?? '127.0.0.1';

  let webhookSecret = options.webhookSecret;
  // The shop's address as the payer's browser and Caisse reach it, once it listens.
  let publicUrl = options.publicUrl ?? '';
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log(`error: ${(err as Error)?.stack ?? String(err)}`);
      if (!res.headersSent) send(res, 500, 'text/plain', 'Something went wrong');
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://shop.local');
    const path = url.pathname;
    if (req.method === 'GET' && path === '/') return send(res, 200, 'text/html; charset=utf-8', productPage());
    if (req.method === 'GET' && path === '/healthz') return send(res, 200, 'application/json', '{"status":"ok"}');
    if (req.method === 'GET' && path === '/assets/checkout.js') return send(res, 200, 'text/javascript; charset=utf-8', script);

    if (req.method === 'POST' && path === '/orders') {
      const order = orders.create(PRODUCT.item, PRODUCT.amount, PRODUCT.currency);
      // The order id travels in metadata and comes back in every event about this intent; the
      // hosted checkout (and a redirect provider) sends the payer back to the order's done page.
      const intent = await caisse.intents.create(
        {
          amount: order.amount,
          currency: order.currency,
          description: `Mango Market order ${order.id}`,
          metadata: { orderId: order.id },
          returnUrl: `${publicUrl}${donePath(order)}`,
        },
        { idempotencyKey: `order-${order.id}` },
      );
      orders.attachIntent(order.id, intent.id, intent.sessionToken);
      log(`order ${order.id}: intent ${intent.id}`);
      res.writeHead(303, { location: `/orders/${order.id}` });
      return res.end();
    }

    const match = /^\/orders\/(ord_[0-9a-f]+)(\/status|\/done)?$/.exec(path);
    if (req.method === 'GET' && match) {
      const order = orders.get(match[1] ?? '');
      if (!order) return send(res, 404, 'text/plain', 'No such order');
      if (match[2] === '/done') return send(res, 200, 'text/html; charset=utf-8', donePage(order));
      if (match[2]) {
        const { id, status, paidAt, paidByEvent } = order;
        return send(res, 200, 'application/json', JSON.stringify({ id, status, paidAt: paidAt ?? null, paidByEvent: paidByEvent ?? null }));
      }
      return send(
        res,
        200,
        'text/html; charset=utf-8',
        orderPage(order, { apiKey: options.caisse.apiKey, baseUrl: options.caisse.baseUrl as string, returnUrl: `${publicUrl}${donePath(order)}` }),
      );
    }

    if (req.method === 'POST' && path === WEBHOOK_PATH) {
      // The signature covers the exact bytes received: read them raw, never re-serialise.
      const raw = await readBody(req);
      if (webhookSecret === undefined) return send(res, 503, 'text/plain', 'not ready');
      const signature = req.headers['pay-signature'];
      const result = handleWebhook(orders, webhookSecret, raw, Array.isArray(signature) ? signature.join(',') : signature, seenEvents, log);
      return send(res, result.status, 'text/plain', result.body);
    }

    send(res, 404, 'text/plain', 'Not found');
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}`;
  publicUrl ||= url;
  let webhookEndpointId: string | undefined;
  if (webhookSecret === undefined) {
    try {
      const endpoint = await webhookSecretFor(caisse, `${options.publicUrl ?? url}${WEBHOOK_PATH}`);
      webhookSecret = endpoint.secret;
      webhookEndpointId = endpoint.id;
      log(`webhook endpoint ${endpoint.id} registered for ${options.publicUrl ?? url}${WEBHOOK_PATH}`);
    } catch (err) {
      server.close();
      throw err;
    }
  }
  return {
    url,
    orders,
    webhookEndpointId,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
