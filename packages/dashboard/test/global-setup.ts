import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { CLI, POSTGRES, withDatabase } from './postgres.ts';
import { admin, launchCaisse, type SharedServer } from './server-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A database `caisse migrate` migrated once for the run, which each file's database copies. */
    postgresTemplate: string;
    /** The server the files that need no settings of their own share, each with its own merchant. */
    sharedServer: SharedServer;
  }
}

/**
 * One migrated database, which each server starts on a copy of (`create database … template …`)
 * instead of running every migration again. And one server that the files share, each with a merchant of its own (test/support.ts, `startServer`). Many
 * files sign in within a minute from 127.0.0.1: its per-address limits are raised, and the files
 * that test those limits are the server suite's. Chromium is the worker's own (test/support.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = `caisse_e2e_tpl_${process.pid}_${randomBytes(3).toString('hex')}`;
  await admin(`create database ${template}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'caisse-e2e-template-'));
  try {
    await promisify(execFile)(process.execPath, [CLI, 'migrate'], {
      env: { ...process.env, DATABASE_URL: withDatabase(POSTGRES, template), CAISSE_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      timeout: 120_000,
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  project.provide('postgresTemplate', template);
  const shared = await launchCaisse({ template, env: { CAISSE_RATE_LIMIT_IP: '100000', CAISSE_RATE_LIMIT_AUTH_FAILURES: '100000' } });
  const endpoint = shared.adminEndpoint();
  project.provide('sharedServer', { url: shared.url, databaseUrl: shared.databaseUrl, adminUrl: endpoint.url, adminToken: endpoint.token });
  return async () => {
    await shared.stop();
    await admin(`drop database if exists ${template} with (force)`);
  };
}
