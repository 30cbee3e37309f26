/**
 * Where the machine's CPU goes during a run: the server's processes, PostgreSQL's, this process
 * (the load generator) and its finished children (pgbench), read from /proc (Linux only; zeros
 * elsewhere). With the cores all busy, these per-payment costs are what bounds payments/s.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  /** utime + stime + cutime + cstime, in ms: a process and its reaped children. */
  ms: number;
  /** Of which in the kernel (stime + cstime): system calls, network, page faults. */
  kernelMs: number;
}

function readStat(pid: string): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    const f = text.slice(close + 2).split(' ');
    // After the comm: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
    const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    return { pid: Number(pid), ppid: Number(f[1]), comm, ms: ticks * TICK_MS, kernelMs: (Number(f[12]) + Number(f[14])) * TICK_MS };
  } catch {
    return undefined;
  }
}

function allStats(): ProcStat[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
  return pids.map(readStat).filter((s): s is ProcStat => s !== undefined);
}

/** The machine's busy and stolen time over all cores, in ms (from /proc/stat). */
function machineTimes(): { busy: number; idle: number; steal: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number) as number[];
    return { busy: (user! + nice! + system! + irq! + softirq!) * TICK_MS, idle: (idle! + iowait!) * TICK_MS, steal: steal! * TICK_MS };
  } catch {
    return { busy: 0, idle: 0, steal: 0 };
  }
}

export interface CpuSnapshot {
  at: number;
  server: number;
  serverKernel: number;
  postgres: number;
  pgbouncer: number;
  self: number;
  machine: { busy: number; idle: number; steal: number };
}

/** CPU used so far by the server whose root processes are `serverPid` (and their children), PostgreSQL, PgBouncer and this process. */
export function cpuSnapshot(serverPid: number | number[] | undefined): CpuSnapshot {
  const roots = new Set(serverPid === undefined ? [] : [serverPid].flat());
  const stats = allStats();
  const children = new Map<number, ProcStat[]>();
  for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  let server = 0;
  let serverKernel = 0;
  {
    const stack = stats.filter((s) => roots.has(s.pid));
    while (stack.length > 0) {
      const s = stack.pop() as ProcStat;
      server += s.ms;
      serverKernel += s.kernelMs;
      stack.push(...(children.get(s.pid) ?? []));
    }
  }
  const postgres = stats.filter((s) => s.comm === 'postgres' || s.comm.startsWith('postgres:')).reduce((sum, s) => sum + s.ms, 0);
  const pgbouncer = stats.filter((s) => s.comm === 'pgbouncer').reduce((sum, s) => sum + s.ms, 0);
  const self = readStat(String(process.pid))?.ms ?? 0;
  return { at: performance.now(), server, serverKernel, postgres, pgbouncer, self, machine: machineTimes() };
}

export interface CpuUse {
  /** CPU ms per unit of work (a payment), for each party. */
  /** `pgbouncer` only when one ran (the hosts phase); `sandbox` when the providers' sandbox ran apart (the momo phase). */
  perUnitMs: { server: number; serverKernel: number; postgres: number; loadGenerator: number; pgbouncer?: number; sandbox?: number };
  /** The same in H, the server CPU of one hello-world request of the same run (added once the run knows H). */
  perUnitH?: { server: number; serverKernel: number; postgres: number; loadGenerator: number; pgbouncer?: number; sandbox?: number };
  /** Share of all cores busy during the run (0–1), and the share stolen by the hypervisor. */
  machineBusy: number;
  machineSteal: number;
}

/** `digits`: decimals of the per-unit figures (4 for a hello-world request, which costs hundredths of a ms). */
export function cpuBetween(a: CpuSnapshot, b: CpuSnapshot, units: number, digits = 2): CpuUse {
  const f = 10 ** digits;
  const per = (x: number) => Math.round((x / Math.max(1, units)) * f) / f;
  const busy = b.machine.busy - a.machine.busy;
  const idle = b.machine.idle - a.machine.idle;
  const steal = b.machine.steal - a.machine.steal;
  const all = busy + idle + steal;
  return {
    perUnitMs: {
      server: per(b.server - a.server),
      serverKernel: per(b.serverKernel - a.serverKernel),
      postgres: per(b.postgres - a.postgres),
      loadGenerator: per(b.self - a.self),
      ...(b.pgbouncer > a.pgbouncer ? { pgbouncer: per(b.pgbouncer - a.pgbouncer) } : {}),
    },
    machineBusy: all > 0 ? Math.round((busy / all) * 100) / 100 : 0,
    machineSteal: all > 0 ? Math.round((steal / all) * 100) / 100 : 0,
  };
}

/** A process's resident memory now, in MB (VmRSS of /proc/<pid>/status). */
export function rssMbOf(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb === undefined ? Number.NaN : Math.round(Number(kb) / 1024);
}

/** Milliseconds in H (the server CPU of one hello-world request), to one decimal. */
export function inH(ms: number, H: number): number {
  return Math.round((ms / H) * 10) / 10;
}

/**
 * Adds `perUnitH` beside every `perUnitMs` found in `results` (each phase's CPU figures), so the
 * JSON carries every CPU figure in H as well as in ms.
 */
export function addH(results: unknown, H: number): void {
  const seen = new Set<unknown>();
  const walk = (v: unknown) => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    const o = v as Record<string, unknown>;
    const ms = o.perUnitMs as Record<string, number> | undefined;
    if (ms && typeof ms === 'object' && !Array.isArray(ms)) {
      o.perUnitH = Object.fromEntries(Object.entries(ms).map(([k, x]) => [k, typeof x === 'number' ? inH(x, H) : x]));
    }
    for (const x of Object.values(o)) walk(x);
  };
  walk(results);
}
