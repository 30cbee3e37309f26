import type { Order } from './orders.ts';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** JSON safe inside a <script> element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escape(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 32rem; padding: 0 1rem; color: #111827; }
  .product { border: 1px solid #d1d5db; border-radius: 8px; padding: 1rem; margin-bottom: 1rem; }
  .buy { font: inherit; font-weight: 600; padding: .625rem 1rem; border-radius: 4px; border: 0; background: #047857; color: #fff; cursor: pointer; }
  .buy:focus-visible { outline: 3px solid #047857; outline-offset: 2px; }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

export const PRODUCT = { item: 'A basket of mangoes', amount: '5000', currency: 'XAF' };

export function productPage(): string {
  return layout(
    'Mango Market',
    `<h1>Mango Market</h1>
<div class="product">
  <h2>${escape(PRODUCT.item)}</h2>
  <p>5 000 FCFA, picked this morning.</p>
  <form method="post" action="/orders"><button class="buy" type="submit">Buy</button></form>
</div>`,
  );
}

export function orderPage(order: Order, checkout: { apiKey: string; baseUrl: string }): string {
  const config = { apiKey: checkout.apiKey, baseUrl: checkout.baseUrl, clientSecret: order.sessionToken, orderId: order.id };
  return layout(
    `Order ${order.id}`,
    `<h1>Your order</h1>
<p>${escape(order.item)} — order <code>${escape(order.id)}</code></p>
<p id="order-status" role="status" aria-live="polite" data-status="${order.status}">Order status: ${order.status}</p>
<div id="checkout"></div>
<script type="application/json" id="checkout-config">${scriptJson(config)}</script>
<script type="module" src="/assets/checkout.js"></script>`,
  );
}
