#!/usr/bin/env node
/* global console, process */
// A server module's entry (`packages/server/src/modules/<m>/index.ts`) exports only what other code
// imports through it (`npm run check:module-entries`, part of `npm run lint`): a name nobody outside
// the module needs is private surface made public, and grows the module's coupling unseen.
// Reads every source file of packages/*/{src,test,scripts}, bench, scripts and examples, collects the
// names each one imports or re-exports from an entry (type-only imports count; a relative specifier
// is resolved to the file it names), leaves out the files inside the entry's own module, and lists
// each exported name nothing outside uses. Remove it from the entry; it stays exported from its own
// file if the module uses it. `node scripts/check-module-entries.mjs [root]` checks another tree.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Every name of an entry, for an import that can use any of them (`export *`, a namespace passed on). */
export const ALL = '*';
const SOURCE = /\.(tsx?|mts|cts|mjs|cjs|js)$/;
const SKIPPED = new Set(['node_modules', 'dist', 'generated', 'coverage']);

const toPosix = (path) => path.split(sep).join('/');

/** The modules' entries, as paths from `root` with forward slashes. */
export function moduleEntries(root) {
  const modules = join(root, 'packages/server/src/modules');
  if (!existsSync(modules)) return [];
  return readdirSync(modules)
    .map((name) => `packages/server/src/modules/${name}/index.ts`)
    .filter((entry) => existsSync(join(root, entry)))
    .sort();
}

/** Files that may import an entry, as paths from `root` with forward slashes. */
export function importerFiles(root) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (SKIPPED.has(name) || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(toPosix(relative(root, path)));
    }
  };
  const dirs = ['bench', 'scripts', 'examples'];
  const packages = join(root, 'packages');
  if (existsSync(packages)) {
    for (const pkg of readdirSync(packages)) for (const sub of ['src', 'test', 'scripts']) dirs.push(`packages/${pkg}/${sub}`);
  }
  for (const dir of dirs) if (existsSync(join(root, dir)) && statSync(join(root, dir)).isDirectory()) walk(join(root, dir));
  return out.sort();
}

function parse(file, text) {
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : /\.[mc]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
}

const hasExport = (node) => ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export;
const isDefault = (node) => ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Default;

/** The names an entry exports, in source order. `export *` shows as ALL (ESLint refuses it there). */
export function exportedNames(file, text) {
  const names = [];
  for (const node of parse(file, text).statements) {
    if (ts.isExportDeclaration(node)) {
      if (!node.exportClause) names.push(ALL);
      else if (ts.isNamespaceExport(node.exportClause)) names.push(node.exportClause.name.text);
      else for (const element of node.exportClause.elements) names.push(element.name.text);
    } else if (ts.isExportAssignment(node)) names.push('default');
    else if (ts.isVariableStatement(node) && hasExport(node)) {
      for (const declaration of node.declarationList.declarations) names.push(...bindingNames(declaration.name));
    } else if (hasExport(node) && isDefault(node)) names.push('default');
    else if (hasExport(node) && node.name && ts.isIdentifier(node.name)) names.push(node.name.text);
  }
  return names;
}

function bindingNames(name) {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((element) => (ts.isOmittedExpression(element) ? [] : bindingNames(element.name)));
}

/** What one file imports, as `{ specifier, names }`: names taken from that specifier, or ALL. */
export function importsOf(file, text) {
  const source = parse(file, text);
  const out = [];
  const add = (node, names) => ts.isStringLiteralLike(node) && out.push({ specifier: node.text, names });
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && node.importClause) {
      const { name, namedBindings } = node.importClause;
      const names = name ? ['default'] : [];
      if (namedBindings && ts.isNamedImports(namedBindings)) names.push(...namedBindings.elements.map((e) => (e.propertyName ?? e.name).text));
      else if (namedBindings) names.push(...namespaceUses(source, namedBindings.name.text));
      add(node.moduleSpecifier, names);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const clause = node.exportClause;
      add(node.moduleSpecifier, clause && ts.isNamedExports(clause) ? clause.elements.map((e) => (e.propertyName ?? e.name).text) : [ALL]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, node.qualifier && !node.isTypeOf ? [leftmost(node.qualifier)] : [ALL]);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments.length > 0) {
      add(node.arguments[0], dynamicUses(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const leftmost = (name) => (ts.isIdentifier(name) ? name.text : leftmost(name.left));

/** `import * as ns`: the names read as `ns.X`; ALL if `ns` is used any other way. */
function namespaceUses(source, ns) {
  const names = new Set();
  const visit = (node) => {
    if (ts.isIdentifier(node) && node.text === ns) {
      const parent = node.parent;
      if (ts.isNamespaceImport(parent)) return;
      if (ts.isPropertyAccessExpression(parent) && parent.expression === node) names.add(parent.name.text);
      else if (ts.isQualifiedName(parent) && parent.left === node) names.add(parent.right.text);
      else names.add(ALL);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...names];
}

/** `const { a, b } = await import(x)` or `(await import(x)).a`: those names; anything else, ALL. */
function dynamicUses(call) {
  let node = call.parent;
  while (node && (ts.isParenthesizedExpression(node) || ts.isAwaitExpression(node))) node = node.parent;
  if (node && ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name)) {
    const names = node.name.elements.map((e) => (e.propertyName && ts.isIdentifier(e.propertyName) ? e.propertyName : e.name));
    if (names.every(ts.isIdentifier) && !node.name.elements.some((e) => e.dotDotDotToken)) return names.map((n) => n.text);
  }
  if (node && ts.isPropertyAccessExpression(node) && node.expression !== call) return [node.name.text];
  return [ALL];
}

/** The file a relative specifier names, from `root`, or undefined for a package or a missing file. */
export function resolveSpecifier(root, importer, specifier) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const path = resolve(root, dirname(importer), specifier);
  const candidates = [path, path.replace(/\.(m|c)?js$/, '.$1ts'), `${path}.ts`, `${path}.tsx`, join(path, 'index.ts')];
  const found = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  return found && toPosix(relative(root, found));
}

/** Each entry's exported names that no file outside its module imports, as `entry: name` lines. */
export function unusedExports(root, read = (file) => readFileSync(join(root, file), 'utf8')) {
  const entries = moduleEntries(root);
  const used = new Map(entries.map((entry) => [entry, new Set()]));
  for (const file of importerFiles(root)) {
    const text = read(file);
    // A path to an entry from outside the modules' folder goes through `modules`: skip parsing the rest.
    if (!file.startsWith('packages/server/src/modules/') && !text.includes('modules')) continue;
    for (const { specifier, names } of importsOf(file, text)) {
      const target = resolveSpecifier(root, file, specifier);
      if (!target || !used.has(target) || file.startsWith(target.slice(0, -'index.ts'.length))) continue;
      for (const name of names) used.get(target).add(name);
    }
  }
  const out = [];
  for (const entry of entries) {
    const uses = used.get(entry);
    if (uses.has(ALL)) continue;
    for (const name of exportedNames(entry, read(entry))) if (name !== ALL && !uses.has(name)) out.push(`${entry}: ${name}`);
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const unused = unusedExports(root);
  if (unused.length > 0) {
    console.error(`Exported by a module's entry, imported through it by nothing outside the module (drop them from the entry):\n${unused.join('\n')}`);
    process.exit(1);
  }
  console.log(`check:module-entries: ${moduleEntries(root).length} module entries, every name imported from outside`);
}
