import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM } from './chromium.ts';
import { CLI, POSTGRES, withDatabase } from './postgres.ts';
import { admin, launchCaisse, type SharedServer } from './server-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The WebSocket address of the Chromium that every file of this run connects to. */
    chromiumEndpoint: string;
    /** A database `caisse migrate` migrated once for the run, which each file's database copies. */
    postgresTemplate: string;
    /** The server the files that need no settings of their own share, each with its own merchant. */
    sharedServer: SharedServer;
  }
}

/**
 * One Chromium for the run, which each file connects to with contexts of its own (as isolated as
 * separate browsers: cookies, storage, cache), rather than a browser launched and closed per
 * file: about 2 CPU-s and 1.5 s a file. One migrated database, which each server starts on a copy
 * of (`create database … template …`) instead of running every migration again. And one server
 * that the files share, each with a merchant of its own (test/support.ts, `startServer`). Many
 * files sign in within a minute from 127.0.0.1: its per-address limits are raised, and the files
 * that test those limits are the server suite's.
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
  const [browser, shared] = await Promise.all([
    chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS }),
    launchCaisse({ template, env: { CAISSE_RATE_LIMIT_IP: '100000', CAISSE_RATE_LIMIT_AUTH_FAILURES: '100000' } }),
  ]);
  project.provide('chromiumEndpoint', browser.wsEndpoint());
  const endpoint = shared.adminEndpoint();
  project.provide('sharedServer', { url: shared.url, databaseUrl: shared.databaseUrl, adminUrl: endpoint.url, adminToken: endpoint.token });
  return async () => {
    await Promise.all([browser.close(), shared.stop()]);
    await admin(`drop database if exists ${template} with (force)`);
  };
}
