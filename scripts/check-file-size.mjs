#!/usr/bin/env node
/* global console, process */
// No hand-written source file over 500 lines (`npm run check:file-size`, part of `npm run lint`).
// A file that long holds several things at once: split it into cohesive files beside it (issue 59).
// Reads every .ts/.tsx/.mjs/.js file under packages/*/src, leaving out generated code (any
// `generated/` folder: @caisse/api-types' OpenAPI types, the dashboard's generated files) and unit
// tests (`*.test.ts`), and lists each file over the limit with its count. `node
// scripts/check-file-size.mjs [root]` checks another tree (the test's).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAX_LINES = 500;

/** Source files the limit holds for, as paths from `root` with forward slashes. */
export function sourceFiles(root) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === 'dist' || name === 'generated' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(tsx?|mjs|js)$/.test(name) && !/\.test\.(tsx?|mjs|js)$/.test(name)) out.push(relative(root, path).split(sep).join('/'));
    }
  };
  const packages = join(root, 'packages');
  if (!existsSync(packages)) return out;
  for (const pkg of readdirSync(packages)) {
    const src = join(packages, pkg, 'src');
    if (existsSync(src) && statSync(src).isDirectory()) walk(src);
  }
  return out.sort();
}

/** Lines as an editor numbers them: a last line without its newline counts, a final newline adds none. */
export function lineCount(text) {
  if (text === '') return 0;
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return text.endsWith('\n') ? lines : lines + 1;
}

/** The files over `max` lines, longest first, each `path: N lines`. */
export function oversized(files, read, max = MAX_LINES) {
  return files
    .map((file) => ({ file, lines: lineCount(read(file)) }))
    .filter(({ lines }) => lines > max)
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file))
    .map(({ file, lines }) => `${file}: ${lines} lines`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const files = sourceFiles(root);
  const over = oversized(files, (file) => readFileSync(join(root, file), 'utf8'));
  if (over.length > 0) {
    console.error(`Over ${MAX_LINES} lines (split each into cohesive files beside it):\n${over.join('\n')}`);
    process.exit(1);
  }
  console.log(`check:file-size: ${files.length} source files, none over ${MAX_LINES} lines`);
}
