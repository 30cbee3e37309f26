import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM } from './chromium.ts';
import { CLI, POSTGRES, withDatabase } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The WebSocket address of the Chromium that every file of this run connects to. */
    chromiumEndpoint: string;
    /** A database `caisse migrate` migrated once for the run, which each file's database copies. */
    postgresTemplate: string;
  }
}

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: POSTGRES });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/**
 * One Chromium for the run, which each file connects to with contexts of its own (as isolated as
 * separate browsers: cookies, storage, cache), rather than a browser launched and closed per
 * file: about 2 CPU-s and 1.5 s a file. And one migrated database, which each file's server starts
 * on a copy of (`create database … template …`) instead of running every migration again.
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
  const server = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return async () => {
    await server.close();
    await admin(`drop database if exists ${template} with (force)`);
  };
}
