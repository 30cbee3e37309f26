#!/usr/bin/env node
/* global console, process */
// No provider named outside its own files (`npm run check:provider-names`, part of `npm run lint`).
// A provider is its files under packages/server/src/modules/connectors/ and one line in the
// registry; everything else reads the descriptions (docs/decisions/0036-provider-names.md). This
// lists every source file where a provider's registry name (`mtn_momo`) or brand (`MTN MoMo`,
// `MTN`, `MoMo`, `momo`, `mtnMomo`: every spelling, see `spellings`) appears as code, in a literal or in a message catalogue. Comments are not code and are
// skipped. The names come from the descriptions, so a new provider is watched at once.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const CONNECTORS = 'packages/server/src/modules/connectors/';

/** Where a provider may be named: its own files, the registry, and what is not shipped code. */
export const ALLOWED = [
  // A connector's own folder (any folder of the module but the shared sandbox server, so that a
  // new connector needs no line here) and the registry.
  /^packages\/server\/src\/modules\/connectors\/(?!sandbox\/)[a-z0-9-]+\//,
  /^packages\/server\/src\/modules\/connectors\/connectors\.registry\.ts$/,
  // The module's index re-exports each connector's object by its folder's path.
  /^packages\/server\/src\/modules\/connectors\/index\.ts$/,
  // This check, which names them in its own rules.
  /^scripts\/check-provider-names\./,
  // Tests, their fixtures and the harnesses that drive the sandbox (crash, failover, restore, load).
  /(^|\/)test\//,
  /\.(test|e2e\.test)\.[cm]?[jt]sx?$/,
  /^packages\/server\/scripts\//,
  // The newcomer replay: a new user's session, typing what a user types (a provider's name).
  /^scripts\/newcomer\./,
  /^bench\//,
  // Mobile networks by number prefix (MTN, Orange): the telephone network a number belongs to, a
  // hint for the payer's choice, not a provider of Caisse's.
  /^packages\/server\/src\/modules\/connectors\/connectors\.numbering\.ts$/,
  // Generated from the registry (the OpenAPI `provider` enum), checked by check:generated-types.
  /(^|\/)generated\//,
];

/**
 * Files that still name a provider, each to be moved onto the descriptions (issue 32): a file
 * named here passes, and the check fails once it no longer needs to be, so this list only shrinks.
 */
export const PENDING = [];

/** Source files: every package's and example's code and message catalogues, and the root scripts; not builds or dependencies. */
export function sourceFiles(dir = root, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.([cm]?js|tsx?)$/.test(name) || (name.endsWith('.json') && dir.endsWith('messages'))) out.push(relative(root, path).split(sep).join('/'));
  }
  return out;
}

/**
 * Words of a brand that name no provider alone: "Money" of Orange Money is everyone's word. Every
 * other word of a brand (MTN, MoMo, Orange, Wave) names its provider in any spelling.
 */
export const GENERIC_WORDS = new Set(['money', 'mobile', 'pay', 'wallet', 'cash']);

const capitalized = (word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();

/**
 * The spellings a provider is named by: its registry name (`mtn_momo`) and its kebab, camel,
 * Pascal and upper-case forms (`mtn-momo`, `mtnMomo`, `MtnMomo`, `MTN_MOMO`); its brand (`MTN
 * MoMo`) and the brand run together (`MTNMoMo`); and each brand word not in GENERIC_WORDS, as
 * written, in lower case, upper case and capitalized (`MoMo`, `momo`, `MOMO`, `Momo`).
 */
export function spellings(name, displayName) {
  const out = new Set([name]);
  const parts = name.split(/[_-]/);
  out.add(parts.join('-'));
  out.add(parts.map((p, i) => (i === 0 ? p : capitalized(p))).join(''));
  out.add(parts.map(capitalized).join(''));
  out.add(name.toUpperCase());
  if (displayName !== undefined) {
    out.add(displayName);
    out.add(displayName.replace(/\s+/g, ''));
    for (const word of displayName.split(/\s+/)) {
      if (GENERIC_WORDS.has(word.toLowerCase())) continue;
      for (const form of [word, word.toLowerCase(), word.toUpperCase(), capitalized(word)]) out.add(form);
    }
  }
  return [...out];
}

/** Every provider's spellings (see `spellings`), read from the descriptions. */
export function providerNames(dir = join(root, CONNECTORS)) {
  const names = new Set();
  for (const file of sourceFiles(dir, [])) {
    if (!file.endsWith('.description.ts')) continue;
    const text = readFileSync(join(root, file), 'utf8');
    const name = /^\s*name:\s*'([^']+)'/m.exec(text)?.[1];
    const displayName = /^\s*displayName:\s*'([^']+)'/m.exec(text)?.[1];
    if (name !== undefined) for (const spelling of spellings(name, displayName)) names.add(spelling);
  }
  return [...names];
}

/**
 * A spelling as a word of code: not inside a longer word (`microwave`), but found where camel case
 * joins it to another (`payWithMoMo`, `momoNumber`): a spelling that starts with a capital may
 * follow a lower-case letter, and one that ends in a lower-case letter may precede a capital.
 */
function wordPattern(spelling) {
  const escaped = spelling.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const before = /^[A-Z]/.test(spelling) ? '(?<![A-Z0-9_])' : '(?<![A-Za-z0-9_])';
  const after = /[a-z]$/.test(spelling) ? '(?![a-z0-9_])' : '(?![A-Za-z0-9_])';
  return `${before}${escaped}${after}`;
}
/** The text with its comments blanked (same lines), strings and code kept. */
export function withoutComments(text) {
  let out = '';
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && !(c !== '`' && text[j] === '\n')) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/**
 * A line that names a provider on purpose says so in a comment, with why: an old command name
 * kept for the scripts that call it (`momo-sandbox`).
 */
export const ALLOW_LINE = 'check-provider-names: allow';

/** `file:line: name` for each name found in the code of a file not allowed to name it. */
export function findProviderNames(files, names, read = (file) => readFileSync(join(root, file), 'utf8')) {
  // Longest first, so that `MTN MoMo` is reported as itself rather than as `MTN`.
  const sorted = [...names].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(`(${sorted.map(wordPattern).join('|')})`, 'g');
  const found = [];
  for (const file of files) {
    if (ALLOWED.some((rule) => rule.test(file))) continue;
    const text = read(file);
    const raw = text.split('\n');
    const lines = withoutComments(text).split('\n');
    lines.forEach((line, index) => {
      if (raw[index]?.includes(ALLOW_LINE)) return;
      for (const [, name] of line.matchAll(pattern)) found.push(`${file}:${index + 1}: ${name}`);
    });
  }
  return found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const found = findProviderNames(sourceFiles(), providerNames());
  const stale = PENDING.filter((file) => !found.some((line) => line.startsWith(`${file}:`)));
  const named = found.filter((line) => !PENDING.some((file) => line.startsWith(`${file}:`)));
  if (stale.length > 0) {
    console.error(`No longer naming a provider, remove from PENDING in scripts/check-provider-names.mjs:\n${stale.join('\n')}`);
    process.exit(1);
  }
  if (named.length > 0) {
    console.error(`A provider is named outside its own files (read it from the registry or its description):\n${named.join('\n')}`);
    process.exit(1);
  }
  console.log('check:provider-names: no provider named outside its own files');
}
