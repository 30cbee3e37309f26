// The provider-names check finds a name added outside a provider's files, and only there.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findProviderNames, providerNames, sourceFiles, spellings, withoutComments } from './check-provider-names.mjs';

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

test('brand fragments and other spellings are found (MoMo alone, momo, mtnMomo, MTN_MOMO)', () => {
  assert.deepEqual(check('packages/dashboard/src/messages/en.json', '"a": "Pays through the MoMo sandbox"'), [
    'packages/dashboard/src/messages/en.json:1: MoMo',
  ]);
  assert.deepEqual(check('packages/server/src/modules/payouts/x.ts', "const momoNumber = 1;\nconst k = 'mtn-momo';\nconst payWithMomo = MTN_MOMO;"), [
    'packages/server/src/modules/payouts/x.ts:1: momo',
    'packages/server/src/modules/payouts/x.ts:2: mtn-momo',
    'packages/server/src/modules/payouts/x.ts:3: Momo',
    'packages/server/src/modules/payouts/x.ts:3: MTN_MOMO',
  ]);
  assert.deepEqual(check('packages/react/src/x.ts', 'const a = orangeMoney;\nconst b = `OrangeMoney`;\nconst c = "Orange";'), [
    'packages/react/src/x.ts:1: orangeMoney',
    'packages/react/src/x.ts:2: OrangeMoney',
    'packages/react/src/x.ts:3: Orange',
  ]);
});

test("a brand's generic words are not names: Money of Orange Money", () => {
  assert.deepEqual(
    spellings('orange_money', 'Orange Money').filter((s) => /^money$/i.test(s)),
    [],
  );
  assert.deepEqual(check('packages/server/src/modules/payouts/x.ts', "const money = 'Money';\nconst mobileMoney = 1;"), []);
});

test('a line that says why it names a provider passes; its neighbours do not', () => {
  const text = ".alias('momo-sandbox') // check-provider-names: allow (old name)\n.alias('momo-box')";
  assert.deepEqual(check('packages/server/src/cli.ts', text), ['packages/server/src/cli.ts:2: momo']);
});

test('comments, longer words and allowed files are not findings', () => {
  assert.deepEqual(check('packages/server/src/modules/payouts/x.ts', "// like mtn_momo\n/* Wave's */ const waveform = 'microwave';\n"), []);
  assert.deepEqual(check('packages/server/src/modules/payouts/x.ts', "const Waveform = 1; const promotion = 'momentum'; const MTNS = 2;"), []);
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
