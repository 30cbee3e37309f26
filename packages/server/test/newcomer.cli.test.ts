import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { build, stop } from 'esbuild';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_FILE, readAdminFile, registerAdminRoutes } from '../src/admin.ts';
import { buildApp } from '../src/app.ts';
import { formatBanner } from '../src/banner.ts';
import { buildCli, localServerUrl, OPERATOR_ROLES as CLI_OPERATOR_ROLES } from '../src/cli.ts';
import { OPERATOR_ROLES } from '../src/modules/operators/index.ts';
import { dataDirectory, loadConfig, projectRoot } from '../src/config.ts';
import { databaseUnreachable } from '../src/platform/db.ts';
import { createLogger } from '../src/platform/logger.ts';
import { createTestContext, migratedRunDatabase, TEST_DATABASE_URL, TEST_MASTER_KEY, type TestContext } from './harness.ts';
import { BANNER_END, freePort, processEnv, type RunDatabase, runCaisse, type ServerProc, startServerProcess } from './processes.ts';

/** A newcomer's first hour (issue 21): one data directory, the banner, the CLI's help, its admin route. */

const REPO = resolve(import.meta.dirname, '..', '..', '..');

describe('one data directory for every entry point', () => {
  it('is .caisse at the repository root, whatever the current directory; relative CAISSE_DATA_DIR too', () => {
    expect(projectRoot()).toBe(REPO);
    expect(dataDirectory({})).toBe(join(REPO, '.caisse'));
    expect(dataDirectory({ CAISSE_DATA_DIR: 'var/caisse' })).toBe(join(REPO, 'var', 'caisse'));
    expect(dataDirectory({ CAISSE_DATA_DIR: '/srv/caisse' })).toBe('/srv/caisse');
    expect(loadConfig({ CAISSE_MASTER_KEY: TEST_MASTER_KEY }).dataDir).toBe(join(REPO, '.caisse'));
  });

  it('outside a workspace, the current directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'caisse-root-'));
    try {
      expect(projectRoot(dir)).toBe(process.cwd());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('logs are readable on a development terminal, JSON otherwise', () => {
    const base = { CAISSE_MASTER_KEY: TEST_MASTER_KEY, CAISSE_DATA_DIR: '/tmp/caisse-unused' };
    // The test runner's stdout is no terminal: JSON unless asked.
    expect(loadConfig(base).logFormat).toBe(process.stdout.isTTY ? 'pretty' : 'json');
    expect(loadConfig({ ...base, CAISSE_LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => loadConfig({ ...base, CAISSE_LOG_FORMAT: 'yaml' })).toThrow(/CAISSE_LOG_FORMAT: must be one of pretty, json/);
  });
});

describe('.env.example', () => {
  it('lists every variable the configuration reads', () => {
    const example = readFileSync(join(REPO, '.env.example'), 'utf8');
    // config.ts and the area files under config/ it reads them through.
    const src = join(import.meta.dirname, '..', 'src');
    const files = [join(src, 'config.ts'), ...readdirSync(join(src, 'config')).map((f) => join(src, 'config', f))];
    const source = files.map((f) => readFileSync(f, 'utf8')).join('\n');
    const read = new Set([...source.matchAll(/env\.([A-Z][A-Z0-9_]+)|'([A-Z][A-Z0-9_]*_[A-Z0-9_]+|PORT|HOST)'/g)].map((m) => (m[1] ?? m[2]) as string));
    expect(read.size).toBeGreaterThan(40);
    for (const name of read) expect(example, name).toMatch(new RegExp(`^# ${name}=`, 'm'));
  });
});

describe('listen and trigger find the server', () => {
  it('at PORT and HOST as `caisse start` reads them, on loopback when it listens on every address', () => {
    expect(localServerUrl({})).toBe('http://127.0.0.1:8080');
    expect(localServerUrl({ PORT: '4101' })).toBe('http://127.0.0.1:4101');
    expect(localServerUrl({ PORT: '4101', HOST: '0.0.0.0' })).toBe('http://127.0.0.1:4101');
    expect(localServerUrl({ PORT: '4101', HOST: '::' })).toBe('http://127.0.0.1:4101');
    expect(localServerUrl({ PORT: '4101', HOST: '::1' })).toBe('http://[::1]:4101');
    expect(localServerUrl({ PORT: '4101', HOST: '10.0.0.5' })).toBe('http://10.0.0.5:4101');
    // Not a port `caisse start` would take: the default, and the refusal comes from the connection.
    expect(localServerUrl({ PORT: 'eighty' })).toBe('http://127.0.0.1:8080');
  });
});

describe('caisse --help', () => {
  function commands(c: Command): Command[] {
    return [c, ...c.commands.flatMap(commands)];
  }
  function helpOf(c: Command): string {
    let out = '';
    c.configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (out += s) });
    c.outputHelp();
    return out;
  }

  it('every command shows an example', () => {
    const all = commands(buildCli()).filter((c) => c.name() !== 'help');
    expect(all.map((c) => c.name())).toEqual(expect.arrayContaining(['start', 'merchants', 'list', 'create', 'reconcile', 'trigger', 'listen']));
    for (const c of all) expect(helpOf(c), `caisse … ${c.name()} --help`).toMatch(/Examples?:\n {2}\$ .*npx caisse /);
  });

  it("offers the operators module's roles, from a list of its own that loads nothing", () => {
    expect([...CLI_OPERATOR_ROLES]).toEqual([...OPERATOR_ROLES]);
    const create = commands(buildCli()).find((c) => c.name() === 'create' && c.parent?.name() === 'operators') as Command;
    expect(helpOf(create)).toContain(`one of ${OPERATOR_ROLES.join(', ')}`);
  });

  it('loads only commander and its own small pieces before a command runs (the rest when the command imports it)', async () => {
    const { metafile } = await build({
      entryPoints: [join(import.meta.dirname, '..', 'src', 'cli.ts')],
      bundle: true,
      write: false,
      metafile: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      logLevel: 'silent',
      // What a command imports when it runs is not loaded at start.
      plugins: [
        {
          name: 'static-only',
          setup: (b) => b.onResolve({ filter: /.*/ }, (a) => (a.kind === 'dynamic-import' ? { path: a.path, external: true } : undefined)),
        },
      ],
    });
    // esbuild's service process would outlive the file.
    await stop();
    const files = Object.keys(metafile.inputs);
    expect(files.filter((f) => f.includes('/modules/'))).toEqual([]);
    const packages = new Set(
      Object.values(metafile.inputs).flatMap((i) =>
        i.imports.filter((x) => x.external && !x.path.startsWith('node:') && x.kind !== 'dynamic-import').map((x) => x.path),
      ),
    );
    expect([...packages].sort()).toEqual(['@caisse/intl', 'commander']);
  });

  it('--version, and help <command> at any depth', async () => {
    const version = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')).version as string;
    const res = await runCaisse(['--version'], processEnv({}));
    expect(res.stdout.trim()).toBe(version);
    const help = await runCaisse(['help', 'keys', 'create'], processEnv({}));
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: caisse keys create [options]');
    expect(help.stdout).toContain('--kind both');
  });
});

describe('a production start that cannot start (issue 58)', () => {
  const production = (extra: Record<string, string>) => processEnv({ CAISSE_MODE: 'production', CAISSE_LIVE_OUTBOX: 'allow', ...extra });

  it('says in one line that nothing answers at DATABASE_URL and what to do, without a stack trace', async () => {
    const port = await freePort();
    const res = await runCaisse(['start'], production({ DATABASE_URL: `postgres://caisse@127.0.0.1:${port}/caisse` }));
    expect(res.code).toBe(1);
    const lines = res.output.trim().split('\n');
    expect(lines).toEqual([
      `caisse: cannot open the database (nothing answers at 127.0.0.1:${port}, ECONNREFUSED): start PostgreSQL there or correct the host and port in DATABASE_URL`,
    ]);
  }, 60_000);

  it('checks the configuration before it touches the database: a bad provider setting or TLS file is the line', async () => {
    const port = await freePort();
    const unreachable = { DATABASE_URL: `postgres://caisse@127.0.0.1:${port}/caisse` };
    const wave = await runCaisse(
      ['start'],
      production({ ...unreachable, CAISSE_WAVE_API_KEY: 'wave_sn_prod_x', CAISSE_WAVE_WEBHOOK_SECRET: 'whsec', CAISSE_WAVE_BASE_URL: 'http://api.wave.com' }),
    );
    expect(wave.code).toBe(1);
    expect(wave.output.trim()).toMatch(/^caisse: configuration error: CAISSE_WAVE_BASE_URL: must use https:\/\/ in production mode$/);
    // A sandbox value in a live account's variables (issue 54): the same refusal adding such an account gets.
    const momo = await runCaisse(
      ['start'],
      production({
        ...unreachable,
        CAISSE_MOMO_BASE_URL: 'https://proxy.momoapi.mtn.com',
        CAISSE_MOMO_TARGET_ENVIRONMENT: 'sandbox',
        CAISSE_MOMO_API_USER: '0efc4721-b2ec-409c-bcd4-429b4cb8e8e5',
        CAISSE_MOMO_API_KEY: 'k',
        CAISSE_MOMO_COLLECTION_KEY: 'c',
      }),
    );
    expect(momo.code).toBe(1);
    expect(momo.output.trim()).toMatch(
      /^caisse: configuration error: CAISSE_MOMO_TARGET_ENVIRONMENT: is sandbox, MTN's test environment, which moves no real money/,
    );
    const tls = await runCaisse(
      ['start'],
      production({ ...unreachable, CAISSE_TLS_CERT_FILE: '/nonexistent/cert.pem', CAISSE_TLS_KEY_FILE: '/nonexistent/key.pem' }),
    );
    expect(tls.code).toBe(1);
    expect(tls.output.trim()).toMatch(/^caisse: configuration error: CAISSE_TLS_CERT_FILE: cannot read the file \/nonexistent\/cert\.pem$/);
  }, 60_000);

  it('names a missing database, a refused user and an unreachable host with what to do', () => {
    const url = 'postgres://shop:secret@db.example:6432/caisse_prod';
    expect(databaseUnreachable(Object.assign(new Error('database "caisse_prod" does not exist'), { code: '3D000' }), url)?.message).toBe(
      'cannot open the database (database "caisse_prod" does not exist): create it (createdb caisse_prod) or correct the database name in DATABASE_URL',
    );
    expect(databaseUnreachable(Object.assign(new Error('password authentication failed for user "shop"'), { code: '28P01' }), url)?.message).toContain(
      'correct the user "shop" or its password in DATABASE_URL',
    );
    expect(databaseUnreachable(Object.assign(new Error('getaddrinfo ENOTFOUND db.example'), { code: 'ENOTFOUND' }), url)?.message).toBe(
      'cannot open the database (nothing answers at db.example:6432, ENOTFOUND): start PostgreSQL there or correct the host and port in DATABASE_URL',
    );
    expect(databaseUnreachable(new Error('syntax error'), url)).toBeUndefined();
  });
});

describe('the start banner', () => {
  const common = { version: '0.1.0', mode: 'development' as const, url: 'http://127.0.0.1:8080', dataDir: '/repo/.caisse' };

  it('on an empty database: URLs, login, data directory and an export line to paste', () => {
    const text = formatBanner({
      ...common,
      created: { merchantId: 'mch_1', test: { apiKey: 'pk_test_a', secretKey: 'sk_test_b' }, dashboard: { email: 'dev@caisse.local', password: 'pw' } },
      merchants: [],
    });
    expect(text).toContain('http://127.0.0.1:8080/docs');
    expect(text).toContain('http://127.0.0.1:8080/dashboard');
    expect(text).toContain('http://127.0.0.1:8080/operator   (npx caisse operators create');
    expect(text).toContain('dev@caisse.local / pw');
    expect(text).toContain('Data directory  /repo/.caisse');
    expect(text).toMatch(/^ {2}export CAISSE_API_KEY=pk_test_a CAISSE_SECRET_KEY=sk_test_b$/m);
  });

  it('on a later start: how to get keys again', () => {
    const text = formatBanner({ ...common, merchants: [{ id: 'mch_1', name: 'Development merchant', email: 'dev@caisse.local' }] });
    expect(text).not.toContain('export CAISSE_API_KEY');
    expect(text).toContain('npx caisse keys create --merchant mch_1 --kind both');
  });

  it('on PostgreSQL prints its commands with the DATABASE_URL they need, the password hidden', () => {
    const pg = { ...common, dataDir: undefined, databaseUrl: 'postgres://caisse:s3cret@db.example:5432/caisse' };
    const empty = formatBanner({ ...pg, merchants: [] });
    expect(empty).toContain("No merchant yet: DATABASE_URL='postgres://caisse:…@db.example:5432/caisse' npx caisse merchants create");
    expect(empty).not.toContain('s3cret');
    const later = formatBanner({ ...pg, merchants: [{ id: 'mch_1', name: 'Shop', email: null }] });
    expect(later).toContain("DATABASE_URL='postgres://caisse:…@db.example:5432/caisse' npx caisse keys create --merchant mch_1");
  });

  it('ends, in each of its forms, with the line the tests wait for (a pipe may split the write)', () => {
    const forms = [
      formatBanner({
        ...common,
        created: { merchantId: 'mch_1', test: { apiKey: 'pk_test_a', secretKey: 'sk_test_b' }, dashboard: { email: 'a@b.c', password: 'pw' } },
        merchants: [],
      }),
      formatBanner({ ...common, merchants: [{ id: 'mch_1', name: 'Shop', email: null }] }),
      formatBanner({ ...common, merchants: [] }),
    ];
    for (const text of forms) {
      const lines = text.trimEnd().split('\n');
      expect(BANNER_END.test(lines.at(-1) as string), text).toBe(true);
      expect(BANNER_END.test(lines.slice(0, -1).join('\n')), text).toBe(false);
    }
  });
});

describe('the admin endpoint (embedded database held by a server)', () => {
  let ctx: TestContext;
  let app: FastifyInstance;
  let dir: string;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    // As `caisse start` does: the routes are added before the app is ready.
    app = await buildApp({ deps: ctx.deps, logger: createLogger({ level: 'silent' }) });
    dir = mkdtempSync(join(tmpdir(), 'caisse-admin-'));
    const admin = await registerAdminRoutes(app, dir);
    await app.ready();
    admin.publish('http://127.0.0.1:1');
    token = readAdminFile(dir)?.token as string;
  });
  afterAll(async () => {
    await app.close();
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
    app.inject({ method: 'POST', url: path, payload: body as object, remoteAddress, headers: { authorization: `Bearer ${token}`, ...headers } });

  it('writes its token to admin.json, readable by its owner only', () => {
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(statSync(join(dir, ADMIN_FILE)).mode & 0o777).toBe(0o600);
  });

  it('runs the CLI commands for the token holder on loopback', async () => {
    const created = await post('/admin/merchants/create', { name: 'Over the socket' });
    expect(created.statusCode, created.body).toBe(200);
    const merchantId = (created.json() as { merchantId: string }).merchantId;
    const pair = await post('/admin/keys/create', { merchantId, kind: 'both', mode: 'test', name: 'Lost keys', allowedOrigins: [] });
    expect(pair.json()).toMatchObject({ apiKey: { secret: expect.stringMatching(/^pk_test_/) }, secretKey: { secret: expect.stringMatching(/^sk_test_/) } });
    const list = await post('/admin/keys/list', { merchantId });
    expect((list.json() as unknown[]).length).toBe(4);
    const unknown = await post('/admin/keys/list', { merchantId: 'mch_nobody' });
    expect(unknown.json()).toMatchObject({ code: 'not_found' });
  });

  it('reads the operator outbox for `caisse messages list`', async () => {
    const to = 'outbox-reader@shop.example';
    await ctx.services.messaging.sendProof({
      merchantId: null,
      userId: null,
      channel: 'email',
      to,
      subject: 'Confirm',
      body: 'Open https://x/verify?token=ver_1',
      code: 'ver_1',
    });
    const list = await post('/admin/messages/list', { to: 'Outbox-Reader@shop.example', limit: 5 });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toMatchObject({ data: [{ to, body: 'Open https://x/verify?token=ver_1', provider: 'outbox' }], hasMore: false });
  });

  it('a second merchant with the same e-mail is a 409 already_exists naming it, not an error of the database', async () => {
    expect((await post('/admin/merchants/create', { name: 'Twice' })).statusCode).toBe(200);
    const again = await post('/admin/merchants/create', { name: 'Twice' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'already_exists', param: 'email', detail: expect.stringContaining('twice@caisse.local') });
  });

  it('refuses a wrong token (401), another address or a browser (404, as an unknown path)', async () => {
    expect((await post('/admin/merchants/list', {}, { authorization: 'Bearer nope' })).json()).toMatchObject({ code: 'admin_token_invalid' });
    expect((await post('/admin/merchants/list', {}, {}, '10.0.0.8')).statusCode).toBe(404);
    expect((await post('/admin/merchants/list', {}, { origin: 'https://evil.example' })).statusCode).toBe(404);
    expect((await post('/admin/merchants/list', {}, {}, '::ffff:127.0.0.1')).statusCode).toBe(200);
  });

  it('is not in the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/admin'))).toBe(false);
  });
});

/**
 * One `caisse start` in development for the blocks below (a process on the embedded database
 * costs about 3 CPU-s to start): first what it does on an empty database, then the CLI beside it.
 */
describe('`caisse start` in development, on the embedded database or PostgreSQL (issue 36)', () => {
  let database: RunDatabase;
  let server: ServerProc;
  let env: Record<string, string>;
  beforeAll(async () => {
    // Migrated already, with no merchant: the subject is the development merchant, not initdb and
    // the migrations of a first start (about 4 CPU-s; the example shop's e2e starts on an empty one).
    database = await migratedRunDatabase('dev');
    env = processEnv(database.env);
    server = await startServerProcess({ env });
  }, 120_000);
  afterAll(async () => {
    server.kill('SIGTERM');
    await server.exited;
    await database.drop();
  });

  it('creates the development merchant on an empty database, named in its language', async () => {
    expect(server.devMerchant).toBeDefined();
    const list = await runCaisse(['merchants', 'list', '--json'], env);
    expect(list.code, list.output).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ id: server.devMerchant?.merchantId, name: 'Marchand de développement' })]);
  }, 60_000);

  it('reconciles test mode through the running server, whose sandbox it needs', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const res = await runCaisse(['reconcile', '--provider', 'mtn_momo', '--from', today, '--to', today, '--mode', 'test', '--json'], env);
    expect(res.code, res.output).toBe(0);
    expect(res.output).toContain('done by the server running on the');
    // The sandbox in the server listed its requests: the check was made, not skipped.
    expect(JSON.parse(res.stdout)).toMatchObject({ provider: 'mtn_momo', mode: 'test', result: 'agreed', listing: { source: 'provider', ok: true } });
  }, 60_000);

  describe.skipIf(TEST_DATABASE_URL !== undefined)('merchants and keys commands while it holds the embedded database', () => {
    it('prints the data directory at start, and the CLI works through the running server', async () => {
      expect(server.lines.join('\n')).toContain(`Data directory  ${database.dataDir}`);
      const merchantId = server.devMerchant?.merchantId as string;
      const pair = await runCaisse(['keys', 'create', '--merchant', merchantId, '--kind', 'both'], env);
      expect(pair.code, pair.output).toBe(0);
      expect(pair.output).toContain('done by the server running on the embedded database');
      const exported = /export CAISSE_API_KEY=(pk_test_\S+) CAISSE_SECRET_KEY=(sk_test_\S+)/.exec(pair.stdout);
      expect(exported).not.toBeNull();
      // The new pair works against the running server at once.
      const res = await fetch(`${server.url}/balance`, { headers: { 'x-api-key': exported?.[1] as string, authorization: `Bearer ${exported?.[2]}` } });
      expect(res.status).toBe(200);
      const list = await runCaisse(['keys', 'list', '--merchant', merchantId, '--json'], env);
      expect((JSON.parse(list.stdout) as unknown[]).length).toBe(4);
      const shop = await runCaisse(['merchants', 'create', '--name', 'Second shop', '--json'], env);
      expect(JSON.parse(shop.stdout)).toMatchObject({ merchantId: expect.stringMatching(/^mch_/) });
    }, 120_000);

    it('removes admin.json when it stops', async () => {
      expect(existsSync(join(database.dataDir as string, ADMIN_FILE))).toBe(true);
      server.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
      expect(existsSync(join(database.dataDir as string, ADMIN_FILE))).toBe(false);
    }, 60_000);
  });
});
