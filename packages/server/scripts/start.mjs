/* global process */
// `npm start`: `caisse start` with the node options that help the database it opens
// (start-flags.mjs). On PostgreSQL none: the server runs in this process. On embedded PGlite
// node must start with them, so the server runs in a child node with them, and this process
// passes on the signals and the exit code.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNodeArgs } from './start-flags.mjs';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'caisse.js');
const nodeArgs = startNodeArgs(process.env);

if (nodeArgs.length === 0) {
  process.argv = [process.execPath, bin, 'start', ...process.argv.slice(2)];
  await import('../bin/caisse.js');
} else {
  // Its own process group (not on Windows, where that opens a console): a Ctrl-C reaches this
  // process several times (the terminal's group, npm passing it on), and the server reads a
  // second signal as "exit now". One signal is passed on; another only 2 s later, as a person's
  // second Ctrl-C would be.
  const child = spawn(process.execPath, [...nodeArgs, bin, 'start', ...process.argv.slice(2)], {
    stdio: 'inherit',
    detached: process.platform !== 'win32',
  });
  let lastPassed = 0;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (Date.now() - lastPassed < 2000) return;
      lastPassed = Date.now();
      child.kill(signal);
    });
  }
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal === null ? 1 : 128 + ({ SIGINT: 2, SIGHUP: 1, SIGKILL: 9, SIGTERM: 15 }[signal] ?? 1));
  });
}
