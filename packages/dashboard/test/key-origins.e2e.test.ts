import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DashboardRun, DESKTOP, signInDashboard, startDashboardRun } from './support.ts';

/**
 * Settings → API keys lists the browser origins each API key (pk_) may be used from and lets the
 * owner change them; the API then refuses that key from any other origin. Debian's Chromium
 * against a real server.
 */
let run: DashboardRun;

beforeAll(async () => {
  run = await startDashboardRun(DESKTOP);
});

afterAll(() => run?.stop());

/** A publishable key's request from a browser at `origin`: its status and code. */
async function fromOrigin(origin: string, apiKey: string) {
  const res = await fetch(`${run.server.url}/gateway/sessions/ps_nothing`, { headers: { 'x-api-key': apiKey, origin } });
  const body = (await res.json()) as { code?: string };
  return body.code;
}

describe('allowed origins of an API key', () => {
  it('shows any website at first, refuses a path, saves an origin, and the API follows', async () => {
    const { server, page } = run;
    const apiKey = server.merchant.test.apiKey;
    await signInDashboard(page, server);
    await page.goto(`${server.url}/dashboard/test/settings/api-keys`);
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'pk_test_' }).first();
    await expect.poll(() => row.textContent()).toContain('Allowed origins: any website');
    expect(await fromOrigin('https://elsewhere.example', apiKey)).not.toBe('origin_not_allowed');

    await row.getByRole('button', { name: /^Change the origins of / }).click();
    const field = row.getByLabel(/^Websites allowed to use this key/);
    await field.fill('https://shop.example/checkout');
    await row.getByRole('button', { name: 'Save the origins' }).click();
    await expect
      .poll(() => row.getByRole('alert').textContent())
      .toBe('Write each origin as scheme://host[:port], e.g. https://shop.example, one per line (50 at most).');

    await field.fill('https://shop.example\nhttps://www.shop.example');
    await row.getByRole('button', { name: 'Save the origins' }).click();
    await expect.poll(() => row.textContent()).toContain('Allowed origins: https://shop.example, https://www.shop.example');
    // The key's cache lets a change through within seconds.
    await expect.poll(() => fromOrigin('https://elsewhere.example', apiKey), { timeout: 20_000 }).toBe('origin_not_allowed');
    expect(await fromOrigin('https://shop.example', apiKey)).not.toBe('origin_not_allowed');
    expect(run.errors).toEqual([]);
  });
});
