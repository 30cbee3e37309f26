/**
 * Prints the server's OpenAPI document (the one `GET /openapi.json` serves) on stdout, without
 * listening on a port: the app is built on an in-memory PGlite database and asked for
 * `app.swagger()`. The SDKs generate their types from this output (`npm run generate` in
 * packages/node), and CI checks that what is committed matches it.
 *
 *   node --conditions=source --import tsx packages/server/scripts/openapi.ts > openapi.json
 */
import { Writable } from 'node:stream';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/platform/clock.ts';
import { systemRandom } from '../src/platform/crypto.ts';
import { openPglite } from '../src/platform/db.ts';
import { idFactory } from '../src/platform/ids.ts';
import { createLogger } from '../src/platform/logger.ts';

const database = await openPglite(undefined);
try {
  const config = loadConfig({
    // A fixed key: nothing is encrypted, the config merely requires one outside production.
    CAISSE_MASTER_KEY: Buffer.alloc(32, 1).toString('base64'),
    CAISSE_DATA_DIR: '/tmp/caisse-openapi-unused',
    LOG_LEVEL: 'silent',
  });
  const deps = { config, db: database.db, clock: systemClock, random: systemRandom, ids: idFactory(systemClock) };
  const silent = new Writable({ write: (_chunk, _enc, cb) => cb() });
  const app = await buildApp({ deps, logger: createLogger({ level: 'silent', stream: silent }) });
  await app.ready();
  process.stdout.write(`${JSON.stringify(app.swagger(), null, 2)}\n`);
  await app.close();
} finally {
  await database.close();
}
