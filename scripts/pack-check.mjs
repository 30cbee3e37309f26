#!/usr/bin/env node
/* global console, process */
// `npm run pack-check`: the clients are not published on the npm registry, so their READMEs say to
// install them from this repository as packed tarballs. This does exactly that in a fresh project
// outside the repository: `npm pack` @caisse/api-types and @caisse/node (built by `npm ci`'s
// prepare step), `npm install --offline` of the two tarballs (they need nothing from the
// registry), then imports @caisse/node there and makes a client. Prints what it did; exit 1 on
// any failure. `--keep` leaves the project folder.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES = ['@caisse/api-types', '@caisse/node'];

async function sh(command, args, cwd) {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, maxBuffer: 16 * 1024 * 1024, timeout: 300_000 });
    return { code: 0, stdout, output: stdout + stderr };
  } catch (err) {
    return { code: err.code ?? 1, stdout: err.stdout ?? '', output: (err.stdout ?? '') + (err.stderr ?? String(err)) };
  }
}

/** Packs and installs the clients in a new folder outside the repository; resolves with what went wrong, or undefined. */
export async function packCheck({ keep = false, log = console.log } = {}) {
  for (const dir of ['packages/api-types/dist', 'packages/node/dist']) {
    if (!existsSync(join(root, dir))) return `${dir} is missing: run npm ci (or npm run build -w @caisse/node) first`;
  }
  const work = mkdtempSync(join(tmpdir(), 'caisse-pack-'));
  try {
    const packed = await sh('npm', ['pack', '--json', '--pack-destination', work, ...PACKAGES.flatMap((p) => ['-w', p])], root);
    if (packed.code !== 0) return `npm pack failed:\n${packed.output}`;
    const tarballs = JSON.parse(packed.stdout).map((p) => join(work, p.filename));
    log(`packed ${tarballs.join(', ')}`);
    const project = join(work, 'shop');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'shop', private: true, type: 'module' }, null, 2));
    const installed = await sh('npm', ['install', '--offline', '--no-audit', '--no-fund', ...tarballs], project);
    if (installed.code !== 0) return `npm install of the tarballs failed:\n${installed.output}`;
    log(`installed in ${project}`);
    const script = [
      "import { Caisse, CaisseError } from '@caisse/node';",
      "const caisse = new Caisse({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'pk_test_abcdefghijklmnopqrstuvwx', secretKey: 'sk_test_abcdefghijklmnopqrstuvwx' });",
      "if (typeof caisse.intents.create !== 'function' || typeof CaisseError !== 'function') throw new Error('unexpected exports');",
      "console.log('imported @caisse/node');",
    ].join('\n');
    writeFileSync(join(project, 'check.mjs'), script);
    const imported = await sh(process.execPath, ['check.mjs'], project);
    if (imported.code !== 0 || !/imported @caisse\/node/.test(imported.stdout)) return `importing @caisse/node failed:\n${imported.output}`;
    log('imported @caisse/node from a project outside the repository');
    return undefined;
  } finally {
    if (keep) log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const failure = await packCheck({ keep: process.argv.includes('--keep') });
  if (failure !== undefined) {
    console.error(`pack-check: ${failure}`);
    process.exit(1);
  }
  console.log('pack-check: ok');
}
