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
  .buy:focus-visible, a:focus-visible { outline: 3px solid #047857; outline-offset: 2px; }
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

export const SHOP_NAME = 'Mango Market';

/** Where the payer comes back to after paying (the intent's `returnUrl`). */
export const donePath = (order: Order) => `/orders/${order.id}/done`;

export function orderPage(order: Order, checkout: { apiKey: string; baseUrl: string; returnUrl: string }): string {
  const config = {
    apiKey: checkout.apiKey,
    baseUrl: checkout.baseUrl,
    clientSecret: order.sessionToken,
    orderId: order.id,
    returnUrl: checkout.returnUrl,
    merchantName: SHOP_NAME,
  };
  const hosted = `${checkout.baseUrl}/checkout/${encodeURIComponent(order.sessionToken ?? '')}`;
  return layout(
    `Order ${order.id}`,
    `<h1>Your order</h1>
<p>${escape(order.item)} — order <code>${escape(order.id)}</code></p>
<p id="order-status" role="status" aria-live="polite" data-status="${order.status}">Order status: ${order.status}</p>
<p><a id="hosted-checkout" href="${escape(hosted)}">Pay on Caisse’s payment page</a>, or here:</p>
<div id="checkout"></div>
<script type="application/json" id="checkout-config">${scriptJson(config)}</script>
<script type="module" src="/assets/checkout.js"></script>`,
  );
}

/**
 * Where the payer lands after paying (the intent's `returnUrl`). It shows what the shop's server
 * knows: the order is paid only once the signed `payment.completed` webhook arrived, so until
 * then the page says the payment is being confirmed and asks the server again.
 */
export function donePage(order: Order): string {
  const paid = order.status === 'paid';
  return layout(
    `Order ${order.id}`,
    `<h1>${paid ? 'Thank you!' : 'Confirming your payment…'}</h1>
<p>${escape(order.item)} — order <code>${escape(order.id)}</code></p>
<p id="order-status" role="status" aria-live="polite" data-status="${order.status}">${paid ? 'Order status: paid. We are preparing your mangoes.' : 'Order status: confirming payment…'}</p>
<p><a href="/">Back to ${SHOP_NAME}</a></p>
${
  paid
    ? ''
    : `<script type="module">
const el = document.getElementById('order-status');
for (let tries = 0; tries < 120; tries++) {
  const order = await (await fetch(${scriptJson(`/orders/${order.id}/status`)})).json();
  if (order.status === 'paid') {
    el.dataset.status = 'paid';
    el.textContent = 'Order status: paid. We are preparing your mangoes.';
    document.querySelector('h1').textContent = 'Thank you!';
    break;
  }
  await new Promise((r) => setTimeout(r, 500));
}
</script>`
}`,
  );
}
