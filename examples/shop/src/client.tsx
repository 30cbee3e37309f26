// The order page's script: the React checkout, then the order's status as the shop's server
// knows it. The page never decides that an order is paid; the webhook does, on the server.
import { CaisseProvider, Checkout } from '@caisse/react';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

interface Config {
  apiKey: string;
  baseUrl: string;
  clientSecret: string;
  orderId: string;
  /** The order's "thank you" page, linked from the checkout's success. */
  returnUrl: string;
  merchantName: string;
}

const config = JSON.parse(document.getElementById('checkout-config')?.textContent ?? '{}') as Config;
const statusEl = document.getElementById('order-status');

function showStatus(status: string) {
  if (!statusEl || statusEl.dataset.status === status) return;
  statusEl.dataset.status = status;
  statusEl.textContent = status === 'paid' ? 'Order status: paid. Thank you! We are preparing your mangoes.' : `Order status: ${status}`;
}

/** After the checkout says the payment went through, wait for the server to confirm the order. */
function App() {
  const [paid, setPaid] = useState(false);
  useEffect(() => {
    if (!paid) return;
    showStatus('confirming payment…');
    let stop = false;
    const poll = async () => {
      while (!stop) {
        const res = await fetch(`/orders/${encodeURIComponent(config.orderId)}/status`);
        const order = (await res.json()) as { status: string };
        if (order.status === 'paid') return showStatus('paid');
        await new Promise((r) => setTimeout(r, 500));
      }
    };
    void poll();
    return () => {
      stop = true;
    };
  }, [paid]);
  return (
    <CaisseProvider apiKey={config.apiKey} clientSecret={config.clientSecret} baseUrl={config.baseUrl}>
      <Checkout theme={{ accent: '#047857' }} merchantName={config.merchantName} returnUrl={config.returnUrl} onSuccess={() => setPaid(true)} />
    </CaisseProvider>
  );
}

const root = document.getElementById('checkout');
if (root) createRoot(root).render(<App />);
