import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { processAlive } from '../process-alive.ts';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: string,
  ) {
    super(`the embedded database in ${dataDir} is already open by ${holder}; stop it or use another CAISSE_DATA_DIR`);
    this.name = 'DataDirLockedError';
  }
}

/**
 * Takes the data directory's lock file, or throws naming the process that holds it. A lock left
 * by a process that is gone (same host, pid not alive) is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'caisse.lock');
  const me = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      return () => {
        try {
          const current = JSON.parse(readFileSync(file, 'utf8')) as { pid?: number };
          if (current.pid === process.pid) rmSync(file, { force: true });
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let holder: { pid?: number; host?: string; startedAt?: string } = {};
      try {
        holder = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        /* unreadable: treat as stale */
      }
      const sameHost = holder.host === undefined || holder.host === me.host;
      if (typeof holder.pid === 'number' && (!sameHost || processAlive(holder.pid))) {
        throw new DataDirLockedError(dataDir, `process ${holder.pid} on ${holder.host ?? 'this host'} (since ${holder.startedAt ?? 'unknown'})`);
      }
      rmSync(file, { force: true });
    }
  }
  throw new DataDirLockedError(dataDir, 'another process (the lock file keeps reappearing)');
}
