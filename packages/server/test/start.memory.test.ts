import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };

// `npm start` (the embedded PGlite gateway of a fresh clone) caps V8's young generation (its
// default 16 MB semi-spaces cost about 30 MB of peak RSS), lowers how far the old generation grows
// past its live objects, and keeps one platform thread, whose malloc arena is all that stays of
// the WebAssembly tier-up's compilations (docs/decisions/0015-performance.md).
describe('npm start', () => {
  it('starts node with 2 MB semi-spaces, a 512 MB old generation and one platform thread', () => {
    const start = pkg.scripts.start as string;
    expect(start).toMatch(/^node --max-semi-space-size=2 --max-old-space-size=512 --v8-pool-size=1 bin\/caisse\.js start$/);
  });

  it('node takes that flag and its young generation stays small', () => {
    const flags = (pkg.scripts.start as string).split(' ').filter((a) => a.startsWith('--'));
    // Objects that survive a while make V8 grow its semi-spaces to their maximum (32 MB in all by default).
    const probe = `const v8 = require('node:v8'); const keep = [];
      for (let i = 0; i < 3e6; i++) { keep.push({ i }); if (keep.length > 2e5) keep.splice(0, 1e5); }
      console.log(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);`;
    const out = spawnSync(process.execPath, [...flags, '-e', probe], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    // Two semi-spaces of at most 2 MB each (16 MB each by default on 64-bit).
    expect(Number(out.stdout.trim())).toBeLessThanOrEqual(4 * 2 ** 20);
  });

  it('node takes the old generation limit', () => {
    const flags = (pkg.scripts.start as string).split(' ').filter((a) => a.startsWith('--'));
    const probe = `console.log(require('node:v8').getHeapStatistics().heap_size_limit)`;
    const out = spawnSync(process.execPath, [...flags, '-e', probe], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    // 512 MB of old generation plus the young one: not the gigabytes of the default.
    expect(Number(out.stdout.trim())).toBeLessThan(600 * 2 ** 20);
  });
});
