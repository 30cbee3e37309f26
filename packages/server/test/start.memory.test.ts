import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PGLITE_NODE_ARGS, startNodeArgs } from '../scripts/start-flags.mjs';

const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };

// `npm start` on the embedded PGlite gateway of a fresh clone caps V8's young generation (its
// default 16 MB semi-spaces cost about 30 MB of peak RSS), lowers how far the old generation grows
// past its live objects, and keeps one platform thread, whose malloc arena is all that stays of
// the WebAssembly tier-up's compilations. On PostgreSQL those options only cost CPU: none there
// (docs/decisions/0045-performance-in-machine-units.md).
describe('npm start', () => {
  it('goes through the launcher that picks the node options', () => {
    expect(pkg.scripts.start).toBe('node scripts/start.mjs');
  });

  it('gives embedded PGlite 2 MB semi-spaces, a 512 MB old generation and one platform thread', () => {
    expect(PGLITE_NODE_ARGS).toEqual(['--max-semi-space-size=2', '--max-old-space-size=512', '--v8-pool-size=1']);
    expect(startNodeArgs({})).toEqual([...PGLITE_NODE_ARGS]);
    // An empty DATABASE_URL is no database URL for the server either.
    expect(startNodeArgs({ DATABASE_URL: '' })).toEqual([...PGLITE_NODE_ARGS]);
  });

  it('gives PostgreSQL no options', () => {
    expect(startNodeArgs({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/caisse' })).toEqual([]);
  });

  it('node takes those options and its young generation stays small', () => {
    // Objects that survive a while make V8 grow its semi-spaces to their maximum (32 MB in all by default).
    const probe = `const v8 = require('node:v8'); const keep = [];
      for (let i = 0; i < 3e6; i++) { keep.push({ i }); if (keep.length > 2e5) keep.splice(0, 1e5); }
      console.log(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);`;
    const out = spawnSync(process.execPath, [...PGLITE_NODE_ARGS, '-e', probe], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    // Two semi-spaces of at most 2 MB each (16 MB each by default on 64-bit).
    expect(Number(out.stdout.trim())).toBeLessThanOrEqual(4 * 2 ** 20);
  });

  it('node takes the old generation limit', () => {
    const probe = `console.log(require('node:v8').getHeapStatistics().heap_size_limit)`;
    const out = spawnSync(process.execPath, [...PGLITE_NODE_ARGS, '-e', probe], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    // 512 MB of old generation plus the young one: not the gigabytes of the default.
    expect(Number(out.stdout.trim())).toBeLessThan(600 * 2 ** 20);
  });
});
