#!/usr/bin/env node
/* global console, performance, process */
// `npm test`: the suites that run in the test process itself, then how long it took and how busy
// the machine was meanwhile. Exits non-zero when any part failed. Long end-to-end runs are
// scripts of their own (docs/decisions/0094-npm-test-and-the-long-runs.md), this script with an
// argument:
//
//   npm test              lane 1: the server's compiled CLI (if stale), then the server suite
//                                 (2 workers; its `*.cli.test.ts` files left out)
//                         lane 2: the message catalogues' check, the clients' suites (api-types,
//                                 intl, browser, node, react: one vitest process,
//                                 vitest.clients.config.ts), the example shop's unit files
//   npm run test:cli      the server's files that start `caisse` processes and wait on them
//                         (packages/server/vitest.cli.config.ts)
//   npm run test:browser  the dashboard's Chromium files (2 workers) beside the example shop's
//                         end-to-end purchase in Chromium
//
// Each workspace's part is its own npm script, so its pretest step and JSON report stay its own.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const started = performance.now();
const seconds = (from) => ((performance.now() - from) / 1000).toFixed(1);
const results = [];
const running = new Set();
/** Lines that name a failure, per command: reprinted after the summary, since logs are often read from the end. */
const failures = new Map();
// vitest's markers for a failed file or test, and its summary of failed tests.
const failureLine = /(^| )(FAIL|×|✗) |Failed Tests|AssertionError|Error: /;

// Each command runs in a process group of its own: a signal to this script ends all of it.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    for (const child of running) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        /* already gone */
      }
    }
    process.exit(1);
  });
}

/** Runs a command, its output line by line with a prefix; resolves with its exit code. */
function run(label, command, args, env = {}) {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    running.add(child);
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let buffer = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk) => {
        buffer += chunk;
        const lines = buffer.split('\n');
        buffer = lines.pop();
        for (const line of lines) {
          out.write(`[${label}] ${line}\n`);
          const text = stripVTControlCharacters(line);
          if (failureLine.test(text)) {
            const kept = failures.get(label) ?? [];
            if (kept.length < 40 && !kept.includes(text.trim())) kept.push(text.trim());
            failures.set(label, kept);
          }
        }
      });
      stream.on('end', () => buffer && out.write(`[${label}] ${buffer}\n`));
    }
    child.on('error', (err) => {
      console.error(`[${label}] ${err.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => {
      running.delete(child);
      const status = code ?? (signal ? 1 : 0);
      results.push({ label, status, took: seconds(t0) });
      resolve(status);
    });
  });
}

/**
 * The machine's CPU time so far (Linux, /proc/stat, in clock ticks of 1/100 s): busy and all. Read
 * before and after, it says whether the run waited or computed; it counts every process, the
 * machine's PostgreSQL and Chromium's included, which a sum over this script's children would miss.
 */
function machineCpu() {
  try {
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 8).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq] = ticks;
    return { busy: user + nice + system + irq + softirq, all: user + nice + system + idle + iowait + irq + softirq };
  } catch {
    return undefined;
  }
}
const cpuBefore = machineCpu();

/**
 * The suites' PostgreSQL databases are made for the run and dropped after it: their commits need
 * not wait for the disk (every node-postgres connection of the run, `caisse` processes' included,
 * reads PGOPTIONS). A commit is lost only if PostgreSQL itself stops, which no test does; the
 * crash and failover tests, which stop things, are scripts of their own. The server's suite alone
 * on PostgreSQL: 66.9–68.9 s instead of 73.4–80.0 s.
 */
const DATABASE_ENV = process.env.PGOPTIONS === undefined ? { PGOPTIONS: '-c synchronous_commit=off' } : {};
const test = (workspace, label, script = 'test') => run(label, 'npm', ['run', script, '--silent', '-w', workspace], DATABASE_ENV);
const serverBuilt = () => run('server build', process.execPath, [join(root, 'packages', 'server', 'scripts', 'build-if-stale.mjs')]);

const suite = process.argv[2] ?? 'unit';
const SUITES = {
  unit: () => [
    serverBuilt().then(() => test('@caisse/server', 'server')),
    (async () => {
      await run('messages', process.execPath, [join(root, 'scripts', 'check-messages.mjs')]);
      await run('clients', process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '-c', 'vitest.clients.config.ts']);
      await test('@caisse/example-shop', 'shop');
    })(),
  ],
  cli: () => [serverBuilt().then(() => test('@caisse/server', 'server cli', 'test:cli'))],
  // The browser files start `caisse` processes (the compiled CLI first) and wait on them, on
  // Chromium and on providers' answers about half of their time: the shop's file beside the
  // dashboard's two workers fills it.
  browser: () => {
    const built = Promise.all([serverBuilt(), run('dashboard build', 'npm', ['run', 'build', '--silent', '-w', '@caisse/dashboard'])]);
    return [built.then(() => test('@caisse/dashboard', 'dashboard')), built.then(() => test('@caisse/example-shop', 'shop', 'test:browser'))];
  },
};
if (!(suite in SUITES)) {
  console.error(`test: unknown suite "${suite}"; one of ${Object.keys(SUITES).join(', ')}`);
  process.exit(2);
}
const lanes = SUITES[suite]();
await Promise.all(lanes);

console.log('');
for (const r of results) console.log(`${r.status === 0 ? 'ok  ' : 'FAIL'} ${r.label.padEnd(13)} ${r.took.padStart(6)} s`);
const failed = results.filter((r) => r.status !== 0);
for (const r of failed) {
  const lines = failures.get(r.label) ?? [];
  if (lines.length) console.log(`\n${r.label} failed on:\n${lines.map((l) => `  ${l}`).join('\n')}`);
}
if (failed.length) console.log('');
const cpuAfter = machineCpu();
const busy =
  cpuBefore && cpuAfter
    ? `; the machine's ${availableParallelism()} cores ${((100 * (cpuAfter.busy - cpuBefore.busy)) / (cpuAfter.all - cpuBefore.all)).toFixed(0)} % busy (${((cpuAfter.busy - cpuBefore.busy) / 100).toFixed(0)} CPU-s)`
    : '';
console.log(`tests took ${seconds(started)} s${busy}${failed.length ? ` (${failed.length} failed: ${failed.map((r) => r.label).join(', ')})` : ''}`);
process.exit(failed.length ? 1 : 0);
