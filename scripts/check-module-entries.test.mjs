// The module-entries check fails on a name an entry exports that nothing outside its module imports,
// and passes once every name is imported, whatever the form of the import.
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ALL, exportedNames, importerFiles, importsOf, moduleEntries } from './check-module-entries.mjs';
import { checkOnTrees } from './check-trees.mjs';

/** A repository of its own with these files, checked by the script as a process. */
const check = checkOnTrees(join(dirname(fileURLToPath(import.meta.url)), 'check-module-entries.mjs'));

const A = 'packages/server/src/modules/a';
const entry = [
  "export { createA, type AService, helper } from './a.service.ts';",
  "export { ABody, AList } from './a.schema.ts';",
  "export { default as aRoutes } from './a.routes.ts';",
].join('\n');
const module = { [`${A}/index.ts`]: entry, [`${A}/a.service.ts`]: 'export const createA = 1, helper = 2;\nexport type AService = number;' };

test('a name only the module itself imports from its entry fails the check, listed with its entry', () => {
  const run = check({
    ...module,
    [`${A}/a.routes.ts`]: "import { helper, AList } from './index.ts';",
    'packages/server/src/modules/b/b.service.ts': "import { createA, type AService } from '../a/index.ts';",
    'packages/server/src/app.ts': "import { aRoutes, ABody } from './modules/a/index.ts';",
  });
  assert.equal(run.status, 1);
  assert.deepEqual(
    run.stderr.split('\n').filter((line) => line.startsWith('packages/')),
    [`${A}/index.ts: helper`, `${A}/index.ts: AList`],
  );
});

test('every form of import from every folder counts, type-only ones too', () => {
  const run = check({
    ...module,
    'packages/server/src/modules/b/b.service.ts': "import type { AService } from '../a/index.js';",
    'packages/server/test/a.test.ts': "const { createA } = await import('../src/modules/a/index.ts');",
    'packages/server/scripts/seed.ts': "export { aRoutes as routes } from '../src/modules/a';",
    'bench/a.ts': "import * as a from '../packages/server/src/modules/a/index.ts';\nlet x: a.ABody;",
    'examples/shop/src/x.ts': "type L = import('../../../packages/server/src/modules/a/index.ts').AList;",
    'scripts/h.mjs': "console.log((await import('../packages/server/src/modules/a/index.ts')).helper);",
  });
  assert.equal(run.status, 0, run.stderr);
});

test('a package of the same name or another file of the module is not its entry', () => {
  const run = check({
    ...module,
    'packages/server/src/app.ts': [
      "import { createA, type AService, helper, ABody, aRoutes } from './modules/a/a.service.ts';",
      "import { AList } from 'modules/a/index.ts';",
    ].join('\n'),
  });
  assert.equal(run.status, 1);
  assert.equal(run.stderr.split('\n').filter((line) => line.startsWith('packages/')).length, 6);
});

test('exports and imports are read by name; a namespace or import used whole takes every name', () => {
  assert.deepEqual(exportedNames('x.ts', `${entry}\nexport const C = 1, { d } = o;\nexport type T = 1;\nexport default function () {}`), [
    'createA',
    'AService',
    'helper',
    'ABody',
    'AList',
    'aRoutes',
    'C',
    'd',
    'T',
    'default',
  ]);
  assert.deepEqual(importsOf('x.ts', "import def, { a as b, type C } from './m.ts';\nexport * from './n.ts';"), [
    { specifier: './m.ts', names: ['default', 'a', 'C'] },
    { specifier: './n.ts', names: [ALL] },
  ]);
  assert.deepEqual(importsOf('x.ts', "import * as m from './m.ts';\nuse(m);")[0].names, [ALL]);
  assert.deepEqual(importsOf('x.ts', "const m = await import('./m.ts');")[0].names, [ALL]);
  assert.deepEqual(importsOf('x.ts', "let t: typeof import('./m.ts');")[0].names, [ALL]);
});

test("this repository's entries and importers are found, its dependencies and builds are not", () => {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  assert.ok(moduleEntries(root).includes('packages/server/src/modules/intents/index.ts'));
  const files = importerFiles(root);
  for (const file of [
    'packages/server/src/app.ts',
    'packages/server/test/charges.test.ts',
    'examples/shop/src/main.ts',
    'bench/run.ts',
    'scripts/check-module-entries.mjs',
  ]) {
    assert.ok(files.includes(file), file);
  }
  assert.ok(!files.some((file) => file.includes('node_modules/') || file.includes('/dist/')));
});
