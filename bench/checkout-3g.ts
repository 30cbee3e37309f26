/**
 * The hosted checkout on a phone over 3G (issue 60): the time from navigation to the pay button
 * being visible, and the bytes on the wire until then, on slow 3G (400 kbit/s, 400 ms, CPU ×4) and
 * fast 3G (1.6 Mbit/s, 150 ms, CPU ×4), in Debian's Chromium with the DevTools protocol's network
 * and CPU throttling. Goals: 3 s on slow 3G within 60 KiB, 1.5 s on fast 3G.
 *
 *   npm run bench:checkout                 # 5 loads per link, the median reported
 *   BENCH_LABEL=mine BENCH_RUNS=9 npm run bench:checkout
 *
 * A real server (`caisse start` on a database of its own, on the machine's PostgreSQL), built
 * pages, one intent; every load in a fresh browser context with the cache disabled, so each is a
 * first visit. Writes bench/results/<label>.json and .md (label default `checkout-3g`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../packages/dashboard/test/chromium.ts';
import { launchCaisse } from '../packages/dashboard/test/server-process.ts';
import { FAST_3G, type Link, loadThrottled, PAY_BUTTON, SLOW_3G, type ThrottledLoad } from '../packages/dashboard/test/throttled.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LABEL = process.env.BENCH_LABEL ?? 'checkout-3g';
const GOALS: { link: Link; ms: number; kib?: number }[] = [
  { link: SLOW_3G, ms: 3000, kib: 60 },
  { link: FAST_3G, ms: 1500 },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const server = await launchCaisse();
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
try {
  const merchant = await server.admin<{ test: { apiKey: string; secretKey: string } }>('merchants/create', {
    name: 'Boutique Akwa',
    language: 'fr',
    country: 'CM',
    email: `bench-${process.pid}@akwa.example`,
  });
  const res = await fetch(`${server.url}/gateway`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': merchant.test.apiKey, authorization: `Bearer ${merchant.test.secretKey}` },
    body: JSON.stringify({ amount: '5000', currency: 'XAF', description: '2 × Ndolé' }),
  });
  if (res.status !== 201) throw new Error(`POST /gateway: ${res.status} ${await res.text()}`);
  const { sessionToken } = (await res.json()) as { sessionToken: string };
  const url = `${server.url}/checkout/${sessionToken}`;

  const rows = [];
  for (const goal of GOALS) {
    const loads: ThrottledLoad[] = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'fr-FR' });
      try {
        loads.push(await loadThrottled(await context.newPage(), url, goal.link, PAY_BUTTON));
      } finally {
        await context.close();
      }
    }
    const ms = median(loads.map((l) => l.ms));
    const bytes = median(loads.map((l) => l.bytesBeforeReady));
    const row = {
      link: goal.link,
      runs: loads.map((l) => Math.round(l.ms)),
      medianMs: Math.round(ms),
      goalMs: goal.ms,
      bytes,
      kib: Math.round((bytes / 1024) * 10) / 10,
      goalKib: goal.kib ?? null,
      met: ms <= goal.ms && (goal.kib === undefined || bytes <= goal.kib * 1024),
      requests: loads[0]?.requests
        .filter((r) => r.beforeReady)
        .map((r) => ({
          path: new URL(r.url).pathname.replace(/\/checkout\/.+$/, '/checkout/{token}').replace(/\/sessions\/[^/]+/, '/sessions/{token}'),
          type: r.type,
          initiator: r.initiator,
          bytes: r.bytes,
        })),
    };
    rows.push(row);
    console.log(
      `${goal.link.name}: pay button after ${row.medianMs} ms (median of ${RUNS}: ${row.runs.join(', ')}), ${row.kib} KiB — goal ${goal.ms} ms${goal.kib ? `, ${goal.kib} KiB` : ''}: ${row.met ? 'met' : 'MISSED'}`,
    );
  }

  const machine = { cpu: cpus()[0]?.model ?? '?', cores: cpus().length, node: process.version, loadavg: loadavg().map((x) => Math.round(x * 100) / 100) };
  const at = new Date().toISOString();
  const dir = join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${LABEL}.json`), `${JSON.stringify({ at, machine, runs: RUNS, results: rows }, null, 2)}\n`);
  const md = [
    `# The hosted checkout over 3G (${at})`,
    '',
    `\`npm run bench:checkout\`, ${RUNS} first visits per link, Chromium throttled through the DevTools protocol; ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, load average ${machine.loadavg.join(' ')}.`,
    '',
    '| link | pay button (median) | runs (ms) | goal | on the wire before it | goal | met |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.link.name} (${r.link.kbps} kbit/s, ${r.link.latencyMs} ms, CPU ×${r.link.cpuSlowdown}) | ${r.medianMs} ms | ${r.runs.join(', ')} | ${r.goalMs} ms | ${r.kib} KiB | ${r.goalKib ?? '—'} KiB | ${r.met ? 'yes' : 'no'} |`,
    ),
    '',
    'Requests before the pay button (first slow-3G load):',
    '',
    '| request | type | initiator | bytes |',
    '|---|---|---|---|',
    ...(rows[0]?.requests ?? []).map((r) => `| \`${r.path}\` | ${r.type} | ${r.initiator} | ${r.bytes} |`),
    '',
  ].join('\n');
  writeFileSync(join(dir, `${LABEL}.md`), md);
} finally {
  await browser.close();
  await server.stop();
}
