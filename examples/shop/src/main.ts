// Starts the example shop. Environment:
//   CAISSE_BASE_URL    where Caisse runs (default http://127.0.0.1:8080, where `npm start` puts it)
//   CAISSE_API_KEY     the merchant's publishable key (pk_test_…)
//   CAISSE_SECRET_KEY  the merchant's secret key (sk_test_…)
//   PORT               the shop's port (default 3000)
//   SHOP_URL           the shop's address as Caisse reaches it (default http://127.0.0.1:PORT)
//   CAISSE_WEBHOOK_SECRET  use this secret instead of registering an endpoint (`caisse listen`)
import { startShop } from './shop.ts';

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    process.stderr.write(`${name} is required (see examples/shop/README.md)\n`);
    process.exit(1);
  }
  return value;
}

const shop = await startShop({
  caisse: {
    baseUrl: process.env.CAISSE_BASE_URL || 'http://127.0.0.1:8080',
    apiKey: required('CAISSE_API_KEY'),
    secretKey: required('CAISSE_SECRET_KEY'),
  },
  port: Number(process.env.PORT || 3000),
  publicUrl: process.env.SHOP_URL || undefined,
  webhookSecret: process.env.CAISSE_WEBHOOK_SECRET || undefined,
});
process.stdout.write(`Mango Market is open at ${shop.url}\n`);
const stop = () => void shop.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
