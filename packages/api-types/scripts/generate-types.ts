/**
 * Generates the API types from the server's OpenAPI document into src/generated/api.ts, the one
 * generated copy in the repository: @caisse/node and @caisse/browser build from it (both depend
 * on this package) and the dashboard reads its own API's answers from it (`DashboardPaths`), so a
 * change to a route's schema reaches every client as a type change (or a failing check).
 *
 *   npm run generate:types            (from the repository root) rewrites the generated file
 *   npm run check:generated-types     exits 1, naming the stale file, when it differs
 *
 * The document comes from packages/server/scripts/openapi.ts, which builds the app on an
 * in-memory database and prints `app.swagger()`; openapi-typescript turns it into `paths`.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { type OpenApiDocument, renderReference } from './api-reference.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const TYPES = 'packages/api-types/src/generated/api.ts';
/** The API reference (scripts/api-reference.ts), rendered from the same document with its prose. */
const REFERENCE = 'docs/api.md';

async function openapiDocument(): Promise<Record<string, unknown> & { paths: Record<string, unknown>; info: { title: string; version: string } }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--conditions=source', '--import', 'tsx', 'packages/server/scripts/openapi.ts'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout);
}

/**
 * Paths no typed client calls: the hosted checkout page and the CLI's event stream. The
 * dashboard's and the operator console's own APIs stay in: src/index.ts splits `paths` (what the
 * SDKs call) from `DashboardPaths` (what the dashboard's pages call) by prefix.
 */
const UNTYPED = /^\/(checkout|listen)(\/|$)/;
/** Documentation keywords: left out so that a reworded description does not make the types stale. */
const PROSE = new Set(['description', 'summary', 'examples', 'example']);

/** The document without prose; `properties` maps keep every key (a field may be named `description`). */
function withoutProse(node: unknown, propertyNames = false): unknown {
  if (Array.isArray(node)) return node.map((n) => withoutProse(n));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!propertyNames && PROSE.has(key)) continue;
    out[key] = withoutProse(value, key === 'properties' && !propertyNames);
  }
  return out;
}

/** The `paths` types of the document's routes that `keep` selects, without prose. */
async function pathTypes(doc: Awaited<ReturnType<typeof openapiDocument>>, keep: (path: string) => boolean): Promise<string> {
  const paths = Object.fromEntries(Object.entries(doc.paths as Record<string, unknown>).filter(([path]) => keep(path)));
  const { info: _info, ...rest } = doc;
  const selected = { ...(withoutProse({ ...rest, paths }) as object), info: { title: doc.info.title, version: doc.info.version } };
  // The document is OpenAPI 3.1, which openapi-typescript reads as it is.
  return astToString(await openapiTS(selected as never, { alphabetize: true })).trimEnd();
}

const HEADER = [
  "// Generated from the Caisse server's OpenAPI document by packages/api-types/scripts/generate-types.ts.",
  "// Do not edit: change the server's route schemas, then run `npm run generate:types` at the root.",
  '',
];

async function render(doc: Awaited<ReturnType<typeof openapiDocument>>): Promise<string> {
  return [
    ...HEADER,
    '/** The API version these types describe; the clients send it as `pay-version`. */',
    `export const API_VERSION = ${JSON.stringify(doc.info.version)};`,
    '',
    await pathTypes(doc, (path) => !UNTYPED.test(path)),
    '',
  ].join('\n');
}

const check = process.argv.includes('--check');
const doc = await openapiDocument();
const outputs: [string, string][] = [
  [TYPES, await render(doc)],
  [REFERENCE, renderReference(doc as unknown as OpenApiDocument)],
];
const stale: string[] = [];
for (const [target, text] of outputs) {
  const file = resolve(root, target);
  let current: string | undefined;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === text) continue;
  if (check) stale.push(relative(root, file));
  else {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    process.stdout.write(`wrote ${relative(root, file)}\n`);
  }
}
if (check) {
  if (stale.length > 0) {
    process.stderr.write(
      `The generated API types (@caisse/api-types) or the API reference are stale (the server's OpenAPI document changed):\n  ${stale.join('\n  ')}\nRun \`npm run generate:types\` at the repository root and commit the result.\n`,
    );
    process.exit(1);
  }
  process.stdout.write('generated API types (@caisse/api-types) and docs/api.md are up to date\n');
}
