import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, type DashboardRun, DESKTOP, expectAccessible, payAsCustomer, signInDashboard, startDashboardRun } from './support.ts';

/**
 * Issue 22, the Events page, in Debian's Chromium against a real server process: a real payment
 * by a test customer makes its events, the server's own dispatcher delivers them to a local
 * receiver, and the Events page and the event's page show the delivery and its attempt (the
 * status code, the request as sent; the receiver is on loopback, so its answer is never kept).
 * Resend adds a delivery and its attempt. Both pages checked with axe-core, screenshots.
 */
let run: DashboardRun;

beforeAll(async () => {
  run = await startDashboardRun({ ...DESKTOP, locale: 'en' });
});
afterAll(() => run?.stop());

/** Loads the page again until `check` holds (the dispatcher records in the background). */
async function reloadUntil(check: () => Promise<boolean>) {
  await expect
    .poll(
      async () => {
        if (await check()) return true;
        await run.page.reload();
        await run.page.getByRole('heading', { level: 1 }).waitFor();
        return check();
      },
      { timeout: 30_000, interval: 500 },
    )
    .toBe(true);
}

describe('the Events page and an event’s page', () => {
  it('a real payment’s event, its delivery and attempt, resend', async () => {
    const { server, receiver, page, errors } = run;
    const keys = server.merchant.test;
    const endpoint = await apiCall(server.url, 'POST', '/webhook-endpoints', keys, { url: receiver.url });
    expect(endpoint.status).toBe(201);
    const customer = { phoneNumber: '+237650004455', password: 'customer-pw-2026' };
    expect((await apiCall(server.url, 'POST', '/test/users', keys, { ...customer, balance: '20000' })).status).toBe(201);
    const intent = await apiCall(server.url, 'POST', '/gateway', keys, {
      amount: '7500',
      currency: 'XAF',
      description: 'Order E-77',
      metadata: { order: 'E-77' },
    });
    expect(intent.status).toBe(201);
    const intentId = String(intent.body.id);
    await payAsCustomer(server, customer, intentId);
    const events = await apiCall(server.url, 'GET', '/events?type=payment.completed', keys);
    const event = (events.body.data as { id: string; data: { paymentIntent: { id: string } } }[]).find((e) => e.data.paymentIntent.id === intentId);
    expect(event).toBeDefined();
    const eventId = event?.id as string;
    // The server's dispatcher delivers it to the receiver.
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(1);
    expect(JSON.parse(receiver.received[0]?.body ?? '{}').id).toBe(eventId);

    await signInDashboard(page, server);

    // The Events page lists it, linked to its payment.
    await page.getByRole('navigation').getByRole('link', { name: 'Events' }).click();
    await page.getByRole('heading', { level: 1, name: 'Events' }).waitFor();
    const table = page.getByRole('region', { name: 'Events' });
    const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: eventId }) });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain('payment.completed');
    expect(await row.getByRole('link', { name: intentId }).count()).toBe(1);
    await expectAccessible(page, errors, 'v01-events');

    // The type filter keeps it; "failed deliveries only" does not (its delivery succeeded).
    await page.getByLabel('Type').selectOption('payment.failed');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => row.count()).toBe(0);
    await page.getByLabel('Type').selectOption('payment.completed');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => row.count()).toBe(1);
    expect(new URL(page.url()).search).toBe('?type=payment.completed');
    await page.getByLabel('Failed deliveries only').check();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No event has a failed delivery.').waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => row.count()).toBe(1);

    // The event's page: the payload, the delivery to the receiver and its attempt.
    await row.getByRole('link', { name: eventId }).click();
    await page.getByRole('heading', { level: 1, name: 'payment.completed' }).waitFor();
    expect(await page.title()).toContain(eventId);
    const payload = page.getByRole('region', { name: 'The event as sent (JSON)' });
    expect(JSON.parse((await payload.textContent()) ?? '')).toEqual(JSON.parse(receiver.received[0]?.body ?? ''));
    const toReceiver = page.getByRole('region', { name: receiver.url });
    const attempts = toReceiver.getByRole('heading', { level: 4, name: /^Attempt 1/ });
    await reloadUntil(async () => (await attempts.count()) === 1);
    const attempt = toReceiver.locator('li.attempt');
    expect(await attempt.textContent()).toContain('HTTP 200');
    expect(await attempt.textContent()).toMatch(/Duration\d+ ms/);
    // The receiver answered "ok", but it is on this machine: its answer is never stored.
    expect(await attempt.textContent()).toContain('Not kept: the endpoint is on this machine (loopback)');
    await attempt.getByText('Request sent').click();
    const headers = (await attempt.getByRole('region', { name: 'Request headers of attempt 1' }).textContent()) ?? '';
    expect(headers).toContain(`webhook-id: ${eventId}`);
    expect(headers).toContain(`pay-signature: ${String(receiver.received[0]?.headers['pay-signature'])}`);
    expect(await attempt.getByRole('region', { name: 'Request body of attempt 1' }).textContent()).toBe(receiver.received[0]?.body);
    await expectAccessible(page, errors, 'v02-event');

    // Resend to the endpoint: a second delivery, attempted by the dispatcher.
    await page.getByRole('button', { name: `Resend to ${receiver.url}` }).click();
    await page.getByRole('status').filter({ hasText: 'The event will be sent again to 1 endpoint.' }).waitFor();
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(2);
    await reloadUntil(async () => (await attempts.count()) === 2);
    expect(await toReceiver.getByText('HTTP 200').count()).toBe(2);
    // And to every endpoint (the one there is).
    await page.getByRole('button', { name: 'Resend to every endpoint' }).click();
    await page.getByRole('status').filter({ hasText: 'The event will be sent again to 1 endpoint.' }).waitFor();
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(3);
    await reloadUntil(async () => (await attempts.count()) === 3);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    await expectAccessible(page, errors, 'v03-event-resent');

    // Linked from the payment's page and from the endpoint's deliveries.
    await page.goto(`${server.url}/dashboard/test/payments/${intentId}`);
    await page.getByRole('link', { name: eventId }).click();
    await page.getByRole('heading', { level: 1, name: 'payment.completed' }).waitFor();
    await toReceiver.getByRole('link', { name: receiver.url }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
    await page.getByRole('link', { name: eventId }).first().click();
    await page.getByRole('heading', { level: 1, name: 'payment.completed' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/dashboard/test/events/${eventId}`);

    // In French too.
    await page.getByLabel('Language').selectOption('fr');
    await page.getByRole('heading', { level: 2, name: 'Livraisons' }).waitFor();
    expect(await toReceiver.getByRole('heading', { level: 4, name: /^Tentative 1/ }).count()).toBe(3);
    await expectAccessible(page, errors, 'v04-event-fr');
  });
});
