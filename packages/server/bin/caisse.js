#!/usr/bin/env node
/* global process */
// Runs the compiled server (dist/bundle/, made by `npm run build`, and by `npm start` before it
// starts) when it was built after the last change to any source file; otherwise the TypeScript
// sources directly through tsx: no build step between a clone and a run. The compiled server
// starts faster and holds about 40 MB less (no TypeScript loader thread); bundled, a command reads
// a few files instead of resolving some 600 modules, which halves its CPU before it starts work.
// The sources that count are the server's and those of @caisse/node and @caisse/api-types, which
// `listen` and `trigger` use (the server's build builds them first).
import { register as registerHooks } from 'node:module';
import { groupIsFresh } from '../scripts/builds.mjs';

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
if (process.env.CAISSE_COMPILED === '1' || (process.env.CAISSE_FROM_SOURCE !== '1' && (await groupIsFresh('cli')))) {
  cli = await import('../dist/bundle/cli.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  registerHooks(`data:text/javascript,${encodeURIComponent(SOURCE_CONDITION)}`);
  cli = await import('../src/cli.ts');
}
await cli.runCli(process.argv);
