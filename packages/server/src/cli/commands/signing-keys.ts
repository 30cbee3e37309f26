import type { Command } from 'commander';
import { admin, examples } from '../support.ts';

/** signing-keys rotate: a new key for user access tokens. */
export function registerSigningKeysCommands(program: Command): void {
  const signingKeys = examples(program.command('signing-keys').description('keys that sign user access tokens'), 'npx caisse signing-keys rotate');
  examples(
    signingKeys.command('rotate').description('make a new signing key; the old one stays published until its tokens expire'),
    'npx caisse signing-keys rotate',
  ).action(async () => {
    const { kid } = await admin('signing-keys.rotate', {});
    process.stdout.write(`new signing key ${kid}\n`);
  });
}
