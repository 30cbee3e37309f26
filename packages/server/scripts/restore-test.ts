/**
 * The restore drill (`npm run test:restore`): a base backup and the WAL archive bring the database
 * back to a chosen moment (docs/operations.md, "Backups and the restore drill").
 *
 * A PostgreSQL 15 primary archives its WAL to a directory (`archive_command`); Caisse runs on it
 * under a little of the crash test's load (scripts/full-load.ts); `pg_basebackup` copies it
 * meanwhile. Then Caisse stops, the counts of its tables are taken and the moment noted (the
 * target); Caisse starts again and more load runs after it. The base backup is restored into a
 * fresh cluster with `restore_command` and `recovery_target_time` = the target, and promoted. Checks:
 * `caisse ledger verify` passes on the restored database, its counts are the source's at the target,
 * and what came after the target is not there. Prints how long the backup and the restore took.
 * Needs root; removes everything it made.
 */
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import {
  closeRun,
  configureLoad,
  type Lifecycle,
  loadLoop,
  newOutcomes,
  type Run,
  sleep,
  startProviderSandbox,
  startRun,
  stopLastServer,
} from './full-load.ts';
import { asPostgres, missingPrograms, openWorkspace, query, type Workspace } from './pg-clusters.ts';
import { freePort, processEnv, runCaisse, startServerProcess } from '../test/processes.ts';

const t0 = performance.now();
const log = (line: string) => process.stdout.write(`[restore ${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);
const SEED = Number(process.env.RESTORE_SEED || Math.floor(Math.random() * 2 ** 31));
configureLoad({ seed: SEED, short: true, log });
const DATABASE = 'caisse';

/** What the drill compares: every table money and its history live in, and the ledger's total. */
const COUNTS = `select
  (select count(*) from intents) as intents,
  (select count(*) from charges) as charges,
  (select count(*) from payment_attempts) as attempts,
  (select count(*) from refunds) as refunds,
  (select count(*) from topups) as topups,
  (select count(*) from payouts) as payouts,
  (select count(*) from ledger_transfers) as transfers,
  (select count(*) from ledger_postings) as postings,
  (select coalesce(sum(balance), 0) from ledger_accounts where balance > 0) as credits,
  (select count(*) from events) as events`;
type Counts = Record<string, string>;
const show = (c: Counts) =>
  Object.entries(c)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

async function main(): Promise<boolean> {
  const missing = missingPrograms({ bouncer: false });
  if (missing !== undefined) {
    log(`cannot run: ${missing}`);
    return false;
  }
  const failures: string[] = [];
  const check = (ok: boolean, what: string) => {
    log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
    if (!ok) failures.push(what);
  };
  let ws: Workspace | undefined;
  const run: Run = {};
  const cleanup = async () => {
    await closeRun(run);
    ws?.close();
    ws = undefined;
  };
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      log(`${sig}: cleaning up`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  try {
    ws = openWorkspace('restore');
    const archive = ws.folder('archive');
    const primary = ws.cluster('primary', await freePort());
    primary.conf(['archive_mode = on', `archive_command = 'test ! -f ${archive}/%f && cp %p ${archive}/%f'`]);
    primary.start();
    await query(primary.url(), `create database ${DATABASE}`);
    log(`primary :${primary.port}, WAL archived to ${archive}`);

    const port = await freePort();
    const { env: sandboxEnv } = await startProviderSandbox(run, port, ws.folder('caisse'));
    const env = processEnv({
      DATABASE_URL: primary.url(DATABASE),
      CAISSE_DATA_DIR: ws.folder('caisse'),
      ...sandboxEnv,
    });
    const { api, pool } = await startRun(run, { env, port, name: 'Restore', users: 30 });
    const life = run.life as Lifecycle;
    const o = newOutcomes();
    const loadFor = async (ms: number, during?: () => Promise<void>) => {
      const stop = { stopped: false };
      const loops = Array.from({ length: 2 }, () => loadLoop(api, life, pool, o, stop));
      await Promise.all([sleep(ms), during?.()]);
      stop.stopped = true;
      await Promise.all(loops);
      while (o.resolving.size > 0) await Promise.allSettled([...o.resolving]);
    };

    // The base backup, taken while payments go on.
    let backupSeconds = 0;
    await loadFor(4000, async () => {
      await sleep(1000);
      const started = performance.now();
      asPostgres('pg_basebackup', [
        '-h',
        '127.0.0.1',
        '-p',
        String(primary.port),
        '-U',
        'postgres',
        '-D',
        join(ws?.dir as string, 'base'),
        '-X',
        'stream',
        '-c',
        'fast',
      ]);
      backupSeconds = (performance.now() - started) / 1000;
    });
    log(`base backup taken under load in ${backupSeconds.toFixed(1)} s; ${o.flows} flows so far`);
    await loadFor(3000);

    // The target: Caisse stopped, so nothing commits between the counts and the moment noted.
    await stopLastServer(life, check);
    const atTarget = (await query<Counts>(primary.url(DATABASE), COUNTS))[0] as Counts;
    const target = (await query<{ t: string }>(primary.url(), `select clock_timestamp()::text as t`))[0]?.t as string;
    log(`target ${target}: ${show(atTarget)}`);
    await sleep(1000);
    life.markUp(await startServerProcess({ env, port }));
    await loadFor(3000);
    await stopLastServer(life, check);
    const atEnd = (await query<Counts>(primary.url(DATABASE), COUNTS))[0] as Counts;
    log(`after more load: ${show(atEnd)}`);
    // The segment in progress goes to the archive too.
    const last = (await query<{ f: string }>(primary.url(), `select pg_walfile_name(pg_switch_wal()) as f`))[0]?.f;
    for (let i = 0; ; i++) {
      const archived = (await query<{ w: string | null }>(primary.url(), `select last_archived_wal as w from pg_stat_archiver`))[0]?.w;
      if (archived !== null && archived !== undefined && last !== undefined && archived >= last) break;
      if (i > 100) throw new Error(`WAL ${last} was not archived (last: ${archived})`);
      await sleep(100);
    }

    // The restore: the base backup copied into a fresh cluster, WAL replayed from the archive up to the target.
    const started = performance.now();
    asPostgres('/bin/cp', ['-a', join(ws.dir, 'base'), join(ws.dir, 'restored')]);
    const restored = ws.cluster('restored', await freePort(), { init: false });
    restored.conf([
      'archive_mode = off',
      `restore_command = 'cp ${archive}/%f %p'`,
      `recovery_target_time = '${target}'`,
      "recovery_target_action = 'promote'",
    ]);
    asPostgres('/usr/bin/touch', [join(restored.dir, 'recovery.signal')]);
    restored.start();
    for (let i = 0; ; i++) {
      const inRecovery = (await query<{ r: boolean }>(restored.url(), `select pg_is_in_recovery() as r`))[0]?.r;
      if (inRecovery === false) break;
      if (i > 600) throw new Error('the restored cluster did not finish its recovery');
      await sleep(100);
    }
    const restoreSeconds = (performance.now() - started) / 1000;
    log(`restored to ${target} and promoted in ${restoreSeconds.toFixed(1)} s`);

    const restoredCounts = (await query<Counts>(restored.url(DATABASE), COUNTS))[0] as Counts;
    check(show(restoredCounts) === show(atTarget), `the restored database holds what the source held at the target (${show(restoredCounts)})`);
    check(
      Number(atEnd.events) > Number(atTarget.events),
      `what came after the target is not there (the source has ${atEnd.events} events now, ${atTarget.events} at the target)`,
    );
    const verify = await runCaisse(['ledger', 'verify'], { ...env, DATABASE_URL: restored.url(DATABASE) });
    check(
      verify.code === 0,
      `caisse ledger verify exits 0 on the restored database (${(verify.code === 0 ? verify.stdout : verify.output).trim().split('\n').slice(0, 4).join('; ')})`,
    );
    log(
      `summary: base backup ${backupSeconds.toFixed(1)} s under load; restore (copy + WAL replay to the target + promotion) ${restoreSeconds.toFixed(1)} s; ${o.flows} flows in all`,
    );
  } catch (err) {
    failures.push(`the run failed: ${(err as Error).stack ?? String(err)}`);
    log(`FAIL ${(err as Error).stack ?? String(err)}`);
  } finally {
    await cleanup();
  }
  log(failures.length === 0 ? `PASSED in ${((performance.now() - t0) / 1000).toFixed(0)} s` : `FAILED: ${failures.length} check(s)`);
  return failures.length === 0;
}

process.exitCode = (await main()) ? 0 : 1;
