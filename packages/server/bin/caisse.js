#!/usr/bin/env node
/* global process */
// Runs the compiled server (dist/, made by `npm run build`, and by `npm start` before it starts)
// when it was built after the last change to any source file; otherwise the TypeScript sources
// directly through tsx: no build step between a clone and a run. The compiled server starts
// faster and holds about 40 MB less (no TypeScript loader thread). The sources that count are
// the server's and those of @caisse/node and @caisse/api-types, which `listen` and `trigger`
// use, and @caisse/intl (the server's build builds them first).
import { readdirSync, statSync } from 'node:fs';
import { register as registerHooks } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sdks = ['node', 'api-types', 'intl'].map((name) => join(root, '..', name));

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function compiledIsFresh() {
  try {
    const built = statSync(join(root, 'dist', 'cli.js')).mtimeMs;
    for (const sdk of sdks) statSync(join(sdk, 'dist', 'index.js'));
    return [root, ...sdks].every((dir) => built >= newestSource(join(dir, 'src')));
  } catch {
    return false;
  }
}

/**
 * From the sources, the workspace's @caisse/* packages resolve to their TypeScript too (their
 * `source` export), not to a dist/ that may be missing or stale. Only theirs: other packages keep
 * Node's usual conditions.
 */
const SOURCE_CONDITION = `export async function resolve(specifier, context, next) {
  if (!specifier.startsWith('@caisse/')) return next(specifier, context);
  return next(specifier, { ...context, conditions: [...context.conditions, 'source'] });
}`;

let cli;
// CAISSE_COMPILED=1 insists on dist/ (the bench builds it first and measures it even while the
// sources are being edited); CAISSE_FROM_SOURCE=1 insists on the sources.
if (process.env.CAISSE_COMPILED === '1' || (process.env.CAISSE_FROM_SOURCE !== '1' && compiledIsFresh())) {
  cli = await import('../dist/cli.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  registerHooks(`data:text/javascript,${encodeURIComponent(SOURCE_CONDITION)}`);
  cli = await import('../src/cli.ts');
}
await cli.runCli(process.argv);
