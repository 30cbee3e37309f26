import type { Page } from 'playwright-core';

/**
 * A page loaded as a payer's phone loads it over a mobile link: Chromium's network emulation
 * (bandwidth and round-trip time) and CPU slowed down, through the DevTools protocol. Used by the
 * checkout's test (bytes, no request chain) and by bench/checkout-3g.ts (the time to the button).
 * No vitest import here: the bench runs it too.
 */
export interface Link {
  name: string;
  /** Kilobits per second down, and up. */
  kbps: number;
  upKbps: number;
  /** Milliseconds added to every round trip. */
  latencyMs: number;
  /** How many times slower the CPU is (a low-end phone). */
  cpuSlowdown: number;
}

/**
 * The links of issue 60's goals, with a phone's CPU four times slower: slow 3G as the issue measured
 * it (400 kbit/s, 400 ms), and fast 3G as Lighthouse's mobile throttling has it (1.6 Mbit/s down,
 * 750 kbit/s up, 150 ms).
 */
export const SLOW_3G: Link = { name: 'slow 3G', kbps: 400, upKbps: 400, latencyMs: 400, cpuSlowdown: 4 };
export const FAST_3G: Link = { name: 'fast 3G', kbps: 1600, upKbps: 750, latencyMs: 150, cpuSlowdown: 4 };

export interface LoadedRequest {
  url: string;
  /** What the DevTools protocol calls it: Document, Script, Stylesheet, Fetch… */
  type: string;
  /** `parser` when the HTML named it, `script` when a script asked for it. */
  initiator: string;
  /** Bytes on the wire, headers and compressed body included. */
  bytes: number;
  /** Whether it finished before the selector showed. */
  beforeReady: boolean;
}

export interface ThrottledLoad {
  /** From navigation start to the selector's element being visible. */
  ms: number;
  requests: LoadedRequest[];
  /** Bytes on the wire of everything that finished before the selector showed. */
  bytesBeforeReady: number;
}

/** Opens `url` in `page` over `link` and waits for `selector` (the pay button) to be visible. */
export async function loadThrottled(page: Page, url: string, link: Link, selector: string, timeoutMs = 60_000): Promise<ThrottledLoad> {
  const cdp = await page.context().newCDPSession(page);
  const requests = new Map<string, LoadedRequest>();
  let ready = false;
  cdp.on('Network.requestWillBeSent', (e) => {
    requests.set(e.requestId, { url: e.request.url, type: e.type ?? 'Other', initiator: e.initiator.type, bytes: 0, beforeReady: false });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (!r) return;
    r.bytes = e.encodedDataLength;
    r.beforeReady = !ready;
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: link.latencyMs,
    downloadThroughput: (link.kbps * 1000) / 8,
    uploadThroughput: (link.upKbps * 1000) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: link.cpuSlowdown });
  const start = Date.now();
  try {
    await page.goto(url, { waitUntil: 'commit', timeout: timeoutMs });
    await page.locator(selector).first().waitFor({ state: 'visible', timeout: timeoutMs });
    ready = true;
    // From the page's own clock: navigation start to now, free of this process's scheduling.
    const ms = await page.evaluate(() => performance.now());
    const all = [...requests.values()];
    return {
      ms: Number.isFinite(ms) ? ms : Date.now() - start,
      requests: all,
      bytesBeforeReady: all.filter((r) => r.beforeReady).reduce((n, r) => n + r.bytes, 0),
    };
  } finally {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await cdp.detach();
  }
}

/** The checkout's first primary button: mobile money's pay button, or the wallet's sign-in. */
export const PAY_BUTTON = 'main button[type="submit"]';
