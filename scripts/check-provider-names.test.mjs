// The provider-names check finds a name added outside a provider's files, and only there.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findProviderNames, providerNames, sourceFiles, withoutComments } from './check-provider-names.mjs';

const names = providerNames();
const check = (file, text) => findProviderNames([file], names, () => text);

test('the names come from the descriptions', () => {
  for (const name of ['mtn_momo', 'MTN MoMo', 'orange_money', 'Orange Money', 'wave', 'Wave']) assert.ok(names.includes(name), name);
});

test('a name added outside its folder is found, with its line', () => {
  assert.deepEqual(check('packages/dashboard/src/dashboard/pages/New.tsx', "const a = 1;\nconst p = { provider: 'orange_money' };\n"), [
    'packages/dashboard/src/dashboard/pages/New.tsx:2: orange_money',
  ]);
  assert.deepEqual(check('packages/react/src/brand.ts', 'export const label = `Pay with MTN MoMo`;'), ['packages/react/src/brand.ts:1: MTN MoMo']);
  assert.deepEqual(check('packages/server/src/modules/payouts/x.ts', 'if (provider === wave) {}'), ['packages/server/src/modules/payouts/x.ts:1: wave']);
});

test('comments, longer words and allowed files are not findings', () => {
  assert.deepEqual(check('packages/server/src/modules/payouts/x.ts', "// like mtn_momo\n/* Wave's */ const waveform = 'microwave';\n"), []);
  assert.deepEqual(check('packages/server/src/modules/connectors/wave/wave.connector.ts', "const n = 'wave';"), []);
  assert.deepEqual(check('packages/server/src/modules/connectors/mtn-momo/mtn-momo.connector.ts', "const n = 'mtn_momo';"), []);
  assert.deepEqual(check('packages/dashboard/test/payouts.e2e.test.ts', "const n = 'mtn_momo';"), []);
  assert.deepEqual(check('packages/api-types/src/generated/api.ts', "'mtn_momo' | 'wave'"), []);
});

test("the shared sandbox server names no provider: it mounts the registry's list", () => {
  assert.deepEqual(check('packages/server/src/modules/connectors/sandbox/sandbox.ts', "const a = 1;\nif (name === 'wave') {}"), [
    'packages/server/src/modules/connectors/sandbox/sandbox.ts:2: wave',
  ]);
});

test('strings keep their comment-like text; comments keep their lines', () => {
  assert.equal(withoutComments("const u = 'http://x'; // y\nz"), "const u = 'http://x'; \nz");
  assert.equal(withoutComments('a /* b\nc */ d').split('\n').length, 2);
});

test('the repository is scanned without builds or dependencies', () => {
  const files = sourceFiles();
  assert.ok(files.includes('packages/dashboard/src/dashboard/pages/Payouts.tsx'));
  assert.ok(!files.some((f) => f.includes('node_modules/') || f.includes('/dist/')));
});
