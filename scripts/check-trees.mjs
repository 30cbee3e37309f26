/* global process */
// Runs a repository check script as a process on small trees of its own, for the checks' tests.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after } from 'node:test';

/** `check(files)`: writes the files into a new temporary repository and runs `script` on it; every tree is removed after the tests. */
export function checkOnTrees(script) {
  const trees = [];
  after(() => {
    for (const root of trees) rmSync(root, { recursive: true, force: true });
  });
  return (files) => {
    const root = mkdtempSync(join(tmpdir(), 'caisse-check-'));
    trees.push(root);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return spawnSync(process.execPath, [script, root], { encoding: 'utf8' });
  };
}
