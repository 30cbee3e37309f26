import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_DATABASE_URL } from './harness.ts';
import {
  createMerchantWithCli,
  createRunDatabase,
  processEnv,
  type RunDatabase,
  runCaisse,
  type ServerProc,
  startServerProcess,
  type TestKeys,
} from './processes.ts';

/**
 * `caisse start --workers N` (node:cluster): N API processes share the port, the primary runs the
 * background workers, a key revoked by the CLI stops working in every process at once, and
 * SIGTERM ends them all cleanly. PostgreSQL only: on PGlite the option is refused.
 */

let database: RunDatabase;
let env: Record<string, string>;
const servers: ServerProc[] = [];

beforeAll(async () => {
  database = await createRunDatabase(TEST_DATABASE_URL, 'cluster');
  env = processEnv({ ...database.env, LOG_LEVEL: 'info' });
});
afterAll(async () => {
  for (const s of servers) s.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.exited));
  await database.drop();
});

async function get(server: ServerProc, keys: TestKeys): Promise<{ status: number; code?: string; reason?: string }> {
  const res = await fetch(`${server.url}/gateway?limit=1`, {
    headers: { 'x-api-key': keys.apiKey, authorization: `Bearer ${keys.secretKey}`, connection: 'close' },
  });
  const body = (await res.json()) as { code?: string; reason?: string };
  return { status: res.status, code: body.code, ...(body.reason ? { reason: body.reason } : {}) };
}

describe('several API processes', () => {
  // Three processes and a CLI command on a machine that runs the rest of the suite beside them: 150 s.
  it.runIf(TEST_DATABASE_URL !== undefined)(
    'share the port, hear a revocation made by the CLI, and stop together on SIGTERM',
    async () => {
      const keys = await createMerchantWithCli(env, 'Cluster shop');
      const server = await startServerProcess({ env, args: ['--workers', '2'] });
      servers.push(server);
      await server.waitForLine(/"processes":2.*API processes listening/);

      // Both processes answer (each logs its requests with its pid), and both cache the key. The
      // second may still be starting when the first is listening, and the log lines reach this
      // pipe on their own schedule: keep asking until both have answered, within a bound.
      const pids = () => new Set(server.lines.filter((l) => l.includes('"url":"/gateway?limit=1"')).map((l) => /"pid":(\d+)/.exec(l)?.[1]));
      for (let i = 0; i < 20; i++) expect((await get(server, keys)).status).toBe(200);
      await vi.waitFor(
        async () => {
          expect((await get(server, keys)).status).toBe(200);
          expect(pids().size).toBe(2);
        },
        { timeout: 20_000, interval: 100 },
      );
      expect(pids().has(String(server.pid))).toBe(false);

      const listed = await runCaisse(['keys', 'list', '--merchant', keys.merchantId, '--json'], env);
      const apiKeyId = (JSON.parse(listed.stdout.slice(listed.stdout.indexOf('['))) as { id: string; kind: string; mode: string }[]).find(
        (k) => k.kind === 'publishable' && k.mode === 'test',
      )?.id as string;
      const revoked = await runCaisse(['keys', 'revoke', apiKeyId, '--merchant', keys.merchantId], env);
      expect(revoked.code, revoked.output).toBe(0);
      // Within milliseconds every process has dropped the key from its cache (no TTL wait).
      await vi.waitFor(
        async () => {
          for (let i = 0; i < 10; i++) expect(await get(server, keys)).toEqual({ status: 401, code: 'api_key_invalid', reason: 'revoked' });
        },
        { timeout: 2000, interval: 50 },
      );

      server.kill('SIGTERM');
      expect(await server.exited).toEqual({ code: 0, signal: null });
    },
    150_000,
  );

  it.runIf(TEST_DATABASE_URL === undefined)('are refused on the embedded database', async () => {
    const res = await runCaisse(['start', '--workers', '2', '--port', '0'], env);
    expect(res.code).not.toBe(0);
    expect(res.output).toMatch(/CAISSE_API_PROCESSES.*PostgreSQL/);
  });
});
