/* global console, performance, process */
// `node build-if-stale.mjs [server|cli|clients|all] [--force]` (default: server): builds each step of
// the group (scripts/builds.mjs) whose output is older than its sources, one line per step with
// its time, so a first `npm start` shows what it is doing and a later one costs nothing. `npm
// start` builds `all`, `npm ci` (prepare) `clients`, the tests `server` (they start `caisse`
// processes, which run dist/ when it is fresh). `--force` builds every step of the group.
import { groupIsFresh, GROUPS, stepsOf } from './builds.mjs';

const group = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'server';
if (!(group in GROUPS)) {
  console.error(`build: unknown group "${group}"; one of ${Object.keys(GROUPS).join(', ')}`);
  process.exit(2);
}
const force = process.argv.includes('--force');
const seconds = (from) => `${((performance.now() - from) / 1000).toFixed(1)} s`;

const started = performance.now();
if (!force && (await groupIsFresh(group))) {
  console.log(`build: up to date (${GROUPS[group].join(', ')})`);
} else {
  let built = 0;
  for (const step of stepsOf(group)) {
    if (!force && (await step.fresh())) continue;
    const t0 = performance.now();
    process.stdout.write(`build: ${step.name} …`);
    try {
      await step.build();
    } catch (err) {
      process.stdout.write(' failed\n');
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    }
    process.stdout.write(` ${seconds(t0)}\n`);
    built++;
  }
  console.log(`build: ${built} step${built === 1 ? '' : 's'} in ${seconds(started)}; the next start rebuilds only what changed`);
}
