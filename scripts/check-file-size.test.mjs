// The file-size check fails on a 501-line source file and passes on one of 500.
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { lineCount, oversized, sourceFiles } from './check-file-size.mjs';
import { checkOnTrees } from './check-trees.mjs';

/** A repository of its own with these files, checked by the script as a process. */
const check = checkOnTrees(join(dirname(fileURLToPath(import.meta.url)), 'check-file-size.mjs'));
const lines = (n) => 'const a = 1;\n'.repeat(n);

test('a source file of 501 lines fails the check, named with its count', () => {
  const run = check({ 'packages/server/src/big.ts': lines(501), 'packages/server/src/small.ts': lines(10) });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /^packages\/server\/src\/big\.ts: 501 lines$/m);
  assert.doesNotMatch(run.stderr, /small\.ts/);
});

test('a source file of 500 lines passes', () => {
  const run = check({ 'packages/server/src/big.ts': lines(500), 'packages/dashboard/src/pages/Page.tsx': lines(500) });
  assert.equal(run.status, 0, run.stderr);
});

test('generated files, unit tests and files outside packages/*/src are not held to it', () => {
  const run = check({
    'packages/api-types/src/generated/api.ts': lines(900),
    'packages/dashboard/src/shared/generated/texts.ts': lines(900),
    'packages/server/src/modules/x/x.test.ts': lines(900),
    'packages/server/test/x.e2e.test.ts': lines(900),
    'packages/server/scripts/crash-test.ts': lines(900),
    'packages/server/src/notes.md': lines(900),
  });
  assert.equal(run.status, 0, run.stderr);
});

test('every kind of source counts: .ts, .tsx, .mjs, .js', () => {
  const run = check({
    'packages/a/src/a.ts': lines(501),
    'packages/a/src/b.tsx': lines(501),
    'packages/a/src/c.mjs': lines(501),
    'packages/a/src/d.js': lines(501),
  });
  assert.equal(run.status, 1);
  assert.equal(run.stderr.trim().split('\n').length, 5);
});

test('lines count as an editor numbers them; the longest is listed first', () => {
  assert.equal(lineCount(''), 0);
  assert.equal(lineCount('a'), 1);
  assert.equal(lineCount('a\n'), 1);
  assert.equal(lineCount(`${lines(500)}x`), 501);
  const texts = { 'a.ts': lines(501), 'b.ts': lines(600), 'c.ts': lines(500) };
  assert.deepEqual(
    oversized(Object.keys(texts), (file) => texts[file]),
    ['b.ts: 600 lines', 'a.ts: 501 lines'],
  );
});

test("this repository's sources are found, its generated types are not", () => {
  const files = sourceFiles(join(dirname(fileURLToPath(import.meta.url)), '..'));
  assert.ok(files.includes('packages/browser/src/index.ts'));
  assert.ok(files.includes('packages/dashboard/src/dashboard/pages/PaymentDetail.tsx'));
  assert.ok(!files.some((file) => file.includes('/generated/') || file.endsWith('.test.ts')));
});
