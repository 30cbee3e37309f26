import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, type Browser, DESKTOP, launchChromium, type RunningServer, startServer, watchConsole } from './support.ts';

/**
 * The operator the hosted checkout suggests from the number can be changed by the payer; when the
 * chosen one does not take that number, or no operator offered here reaches it, the page says so
 * in the payer's language (never "not a valid number" for a valid one, nor an unexpected error).
 * Debian's Chromium against a real server whose sandboxes run in its process.
 */
let server: RunningServer;
let browser: Browser;
const errors: string[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const LANGUAGES = [
  {
    locale: 'en',
    number: 'Mobile money number',
    pay: /^Pay .+ with MTN MoMo$/,
    otherOperator: 'MTN MoMo does not take this number: it belongs to another operator. Choose that operator, or type another number.',
    unreached: 'No operator offered here takes this number. Pay with a number of another operator, or pay another way.',
  },
  {
    locale: 'fr',
    number: 'Numéro mobile money',
    pay: /^Payer .+ avec MTN MoMo$/,
    otherOperator: 'MTN MoMo ne prend pas ce numéro : il appartient à un autre opérateur. Choisissez cet opérateur ou saisissez un autre numéro.',
    unreached: 'Aucun opérateur proposé ici ne prend ce numéro. Payez avec le numéro d’un autre opérateur, ou autrement.',
  },
] as const;

describe.each(LANGUAGES)('the hosted checkout in $locale', (L) => {
  it('an Orange number with MTN MoMo picked, and a number of an operator nothing here reaches, are explained', async () => {
    const intent = await apiCall(server.url, 'POST', '/gateway', server.merchant.test, { amount: '5000', currency: 'XAF', description: 'Ndolé' });
    expect(intent.status).toBe(201);
    const context = await browser.newContext({ ...DESKTOP, locale: L.locale });
    const page = await context.newPage();
    watchConsole(page, errors);
    await page.goto(`${server.url}/checkout/${intent.body.sessionToken as string}`);
    // 655…: an Orange Cameroon number; the payer picks MTN MoMo anyway.
    await page.getByLabel(L.number).fill('655 00 00 01');
    await page.getByRole('radio', { name: 'MTN MoMo' }).check();
    await page.getByRole('button', { name: L.pay }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(L.otherOperator);
    // 620…: a Cameroonian mobile number of an operator no method here reaches.
    await page.getByLabel(L.number).fill('620 00 00 01');
    await page.getByRole('radio', { name: 'MTN MoMo' }).check();
    await page.getByRole('button', { name: L.pay }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(L.unreached);
    await context.close();
    expect(errors).toEqual([]);
  });
});
