/**
 * The module walls are enforced by `npm run lint:modules` (.dependency-cruiser.cjs), over the real
 * tree, in `npm run lint` and CI. This runs the same rules over a small tree made to break each of
 * them: a rule that stopped matching would let the walls fall silently.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const config = join(repoRoot, '.dependency-cruiser.cjs');
const depcruise = join(repoRoot, 'node_modules', '.bin', 'depcruise');

function cruise(cwd: string, paths: string[]): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(depcruise, ['--config', config, '--output-type', 'err', ...paths], { cwd, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      done({ code, output: stdout + stderr });
    });
  });
}

const fixture = mkdtempSync(join(tmpdir(), 'caisse-walls-'));
afterAll(() => rmSync(fixture, { recursive: true, force: true }));

function write(path: string, text: string) {
  const file = join(fixture, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

describe('the module walls (npm run lint:modules)', () => {
  it('fail on a cross-module import of a non-public file, a cycle, platform importing a module, and a repository used from outside', async () => {
    const m = 'packages/server/src/modules';
    write(`${m}/a/index.ts`, "export * from './a.service.ts';\n");
    write(`${m}/a/a.service.ts`, "import { b } from '../b/b.service.ts';\nexport const a = () => b();\n");
    write(`${m}/a/a.repository.ts`, 'export const aRepository = {};\n');
    write(`${m}/b/index.ts`, "export * from './b.service.ts';\n");
    write(`${m}/b/b.service.ts`, "import { c } from './c.ts';\nexport const b = () => c();\n");
    write(`${m}/b/c.ts`, "import { b } from './b.service.ts';\nexport const c = () => b;\n");
    write('packages/server/src/platform/http.ts', "import { a } from '../modules/a/index.ts';\nexport const h = a;\n");
    write('packages/server/test/a.test.ts', "import { aRepository } from '../src/modules/a/a.repository.ts';\nexport const t = aRepository;\n");
    const { code, output } = await cruise(fixture, ['packages/server/src', 'packages/server/test']);
    expect(code).not.toBe(0);
    expect(output).toContain('module-public-entry-only');
    expect(output).toMatch(/no-cycles.*b\.service\.ts|no-cycles.*c\.ts/);
    expect(output).toContain('platform-imports-no-module');
    expect(output).toContain('repositories-are-private');
  }, 90_000);

  it("fail on the checkout importing the dashboard's code, the dashboard the console's, a client the server's, and a browser package Node's", async () => {
    write('packages/dashboard/src/checkout/main.tsx', "import { x } from '../dashboard/x.ts';\nexport const m = x;\n");
    write('packages/dashboard/src/dashboard/x.ts', "import { o } from '../operator/o.ts';\nexport const x = o;\n");
    write('packages/dashboard/src/operator/o.ts', 'export const o = 1;\n');
    write('packages/server/src/s.ts', 'export const s = 1;\n');
    write('packages/react/src/index.ts', "import { s } from '../../server/src/s.ts';\nexport const r = s;\n");
    write('packages/browser/src/index.ts', "import { readFileSync } from 'node:fs';\nexport const b = readFileSync;\n");
    const { code, output } = await cruise(fixture, ['packages/dashboard/src', 'packages/react/src', 'packages/browser/src']);
    expect(code).not.toBe(0);
    for (const rule of [
      'checkout-imports-no-dashboard',
      'dashboard-imports-no-operator-console',
      'browser-code-imports-no-server',
      'clients-import-no-server-or-dashboard',
      'packages-by-name',
      'browser-code-imports-no-node-builtins',
    ])
      expect(output).toContain(rule);
  }, 90_000);
});
