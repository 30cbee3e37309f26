/**
 * `npm run test:php`: the PHP client's PHPUnit tests against a real Caisse. Starts `caisse` on a
 * free port over a fresh embedded data directory (a merchant made first with the CLI), writes
 * the webhook cases @caisse/node decides (webhook-vectors.ts), runs Debian's `phpunit` with the
 * URL, the keys and the cases in its environment, then stops the server and removes the data.
 * Without `php` or `phpunit` on the PATH it says it skipped and exits 0.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_VERSION, BACKOFF, MAX_RETRY_AFTER_SECONDS } from '@caisse/node';
import { createMerchantWithCli, createRunDatabase, processEnv, startServerProcess } from '../../server/test/processes.ts';
import { webhookVectors } from './webhook-vectors.ts';

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

const missing = ['php', 'phpunit'].filter((tool) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).error !== undefined);
if (missing.length > 0) {
  console.log(`test:php skipped: php/phpunit not installed (missing: ${missing.join(', ')}; apt-get install php8.2-cli php8.2-curl phpunit)`);
  process.exit(0);
}

const build = spawnSync(process.execPath, [join(PACKAGE_DIR, '..', 'server', 'scripts', 'build-if-stale.mjs'), 'server'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const work = mkdtempSync(join(tmpdir(), 'caisse-php-'));
const db = await createRunDatabase(undefined, 'php');
const env = processEnv(db.env);
let code = 1;
let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
try {
  const keys = await createMerchantWithCli(env, 'PHP shop');
  server = await startServerProcess({ env });
  const vectors = join(work, 'webhook-vectors.json');
  writeFileSync(vectors, JSON.stringify(webhookVectors()));
  const phpunit = spawn('phpunit', ['--configuration', join(PACKAGE_DIR, 'phpunit.xml'), ...process.argv.slice(2)], {
    cwd: PACKAGE_DIR,
    stdio: 'inherit',
    env: {
      ...process.env,
      CAISSE_BASE_URL: server.url,
      CAISSE_API_KEY: keys.apiKey,
      CAISSE_SECRET_KEY: keys.secretKey,
      CAISSE_WEBHOOK_VECTORS: vectors,
      CAISSE_NODE_POLICY: JSON.stringify({ apiVersion: API_VERSION, backoff: BACKOFF, maxRetryAfterSeconds: MAX_RETRY_AFTER_SECONDS }),
    },
  });
  code = await new Promise<number>((resolve) => phpunit.once('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
} catch (err) {
  console.error(err);
  if (server) console.error(server.lines.slice(-30).join('\n'));
} finally {
  server?.kill('SIGTERM');
  await server?.exited;
  await db.drop();
  rmSync(work, { recursive: true, force: true });
}
process.exit(code);
