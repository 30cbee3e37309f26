#!/usr/bin/env node
/* global console, process */
// The message catalogues' check (`npm run check:messages`, and the first step of `npm test`):
// each package's `src/messages/{fr,en}.json` hold the same keys, every message is valid ICU
// MessageFormat with the same arguments and tags in both languages, and every key is used by the
// package's sources (as a quoted literal: ids are never built from pieces, so this finds them all).
// Exits non-zero with the list of problems.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, TYPE } from '@formatjs/icu-messageformat-parser';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The packages with catalogues, and the languages every text exists in (@caisse/intl's LANGUAGES). */
export const PACKAGES = ['packages/server', 'packages/react', 'packages/dashboard'];
export const LANGUAGES = ['fr', 'en'];

/** Argument names (with their kind) and tag names of a parsed message, sorted. */
function shapeOf(elements, into = new Set()) {
  for (const el of elements) {
    if (el.type === TYPE.argument || el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time) into.add(`{${el.value}}`);
    if (el.type === TYPE.plural || el.type === TYPE.select) {
      into.add(`{${el.value}, ${el.type === TYPE.plural ? 'plural' : 'select'}}`);
      for (const option of Object.values(el.options)) shapeOf(option.value, into);
    }
    if (el.type === TYPE.tag) {
      into.add(`<${el.value}>`);
      shapeOf(el.children, into);
    }
  }
  return into;
}

function sources(dir, skip) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (path === skip) continue;
    if (statSync(path).isDirectory()) out.push(...sources(path, skip));
    else if (/\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(readFileSync(path, 'utf8'));
  }
  return out;
}

/** The problems of one package's catalogues, as sentences. */
export function checkPackage(pkgDir) {
  const problems = [];
  const messagesDir = join(pkgDir, 'src', 'messages');
  const name = relative(root, pkgDir);
  const catalogues = {};
  for (const lang of LANGUAGES) {
    try {
      catalogues[lang] = JSON.parse(readFileSync(join(messagesDir, `${lang}.json`), 'utf8'));
    } catch (err) {
      problems.push(`${name}: no readable ${lang}.json (${err.message})`);
    }
  }
  if (problems.length) return problems;
  const allKeys = new Set(LANGUAGES.flatMap((l) => Object.keys(catalogues[l])));
  const code = sources(join(pkgDir, 'src'), messagesDir).join('\n');
  for (const key of [...allKeys].sort()) {
    const shapes = {};
    for (const lang of LANGUAGES) {
      const text = catalogues[lang][key];
      if (text === undefined) {
        problems.push(`${name}: "${key}" is missing in ${lang}.json`);
        continue;
      }
      if (typeof text !== 'string' || text.trim() === '') {
        problems.push(`${name}: "${key}" in ${lang}.json is not a text`);
        continue;
      }
      try {
        shapes[lang] = [...shapeOf(parse(text))].sort().join(' ');
      } catch (err) {
        problems.push(`${name}: "${key}" in ${lang}.json is not valid ICU MessageFormat (${err.message})`);
      }
    }
    const distinct = new Set(Object.values(shapes));
    if (distinct.size > 1) {
      problems.push(`${name}: "${key}" has other arguments or tags per language: ${LANGUAGES.map((l) => `${l} [${shapes[l] ?? '?'}]`).join(', ')}`);
    }
    if (!code.includes(`'${key}'`) && !code.includes(`"${key}"`) && !code.includes(`\`${key}\``)) {
      problems.push(`${name}: "${key}" is not used by any source file (remove it from every catalogue)`);
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = PACKAGES.flatMap((p) => checkPackage(join(root, p)));
  for (const p of problems) console.error(p);
  console.log(
    `messages: ${PACKAGES.join(', ')} in ${LANGUAGES.join(' and ')}: ${problems.length ? `${problems.length} problem(s)` : 'every key in both languages, valid, alike and used'}`,
  );
  process.exit(problems.length ? 1 : 0);
}
