#!/usr/bin/env node
/* global console, process */
// The dashboard reads the server's answers through the types generated from its route schemas
// (packages/api-types/src/generated/api.ts, read as `DashboardPaths`); a hand-written copy goes
// stale silently.
// This check (part of `npm run lint`) finds copies: every object type of the generated answers is
// a set of property names; an interface or object type literal written in the dashboard's sources
// whose properties (three or more) are all properties of one generated object and cover at least
// three quarters of them is reported as a copy. Derive the type from @caisse/api-types
// instead (types.ts shows how). Exits 1 with the list.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = join(root, 'packages/dashboard/src');
const GENERATED = join(root, 'packages/api-types/src/generated/api.ts');
/** A copy has at least this many properties: smaller shapes (`{data, hasMore}`) are too common to tell. */
const MIN_PROPERTIES = 3;
const MIN_COVER = 0.75;

function parse(file) {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

const nameOf = (member) => (member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)) ? member.name.text : undefined);
const propertyNames = (members) =>
  members
    .filter(ts.isPropertySignature)
    .map(nameOf)
    .filter((n) => n !== undefined);

/** The property names of every object type the generated file's answers (`responses`) hold. */
const generated = [];
(function collect(node, inAnswer) {
  if (inAnswer && ts.isTypeLiteralNode(node)) {
    const names = propertyNames(node.members);
    if (names.length >= MIN_PROPERTIES) generated.push(new Set(names));
  }
  const answer = inAnswer || (ts.isPropertySignature(node) && nameOf(node) === 'responses');
  ts.forEachChild(node, (child) => collect(child, answer));
})(parse(GENERATED), false);

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'generated') yield* files(path);
    } else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

const copies = [];
for (const file of files(SOURCES)) {
  const source = parse(file);
  (function visit(node) {
    const members = ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node) ? node.members : undefined;
    if (members) {
      const names = propertyNames(members);
      if (names.length >= MIN_PROPERTIES) {
        const copied = generated.find((g) => names.every((n) => g.has(n)) && names.length / g.size >= MIN_COVER);
        if (copied) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart());
          const name = ts.isInterfaceDeclaration(node) ? node.name.text : ts.isTypeAliasDeclaration(node.parent) ? node.parent.name.text : '(type literal)';
          copies.push(`${relative(root, file)}:${line + 1} ${name} {${names.join(', ')}} copies a generated type {${[...copied].join(', ')}}`);
        }
      }
    }
    ts.forEachChild(node, visit);
  })(source);
}

if (copies.length > 0) {
  console.error(
    `Hand-written copies of the dashboard API's generated types (derive them from @caisse/api-types' DashboardPaths, see types.ts):\n  ${copies.join('\n  ')}`,
  );
  process.exit(1);
}
console.log(`dashboard types: no hand-written copy of the ${generated.length} generated object types`);
