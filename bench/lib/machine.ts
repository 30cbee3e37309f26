/** What the numbers were measured on. */
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import pg from 'pg';

export interface Machine {
  cpuModel: string;
  cores: number;
  memoryGb: number;
  node: string;
  postgres: string;
  kernel: string;
  loadAverage: number[];
}

export async function describeMachine(databaseUrl: string): Promise<Machine> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let postgres = 'unknown';
  try {
    const r = await client.query<{ v: string }>('select version() as v');
    postgres = (r.rows[0]?.v ?? 'unknown').split(' on ')[0] ?? postgres;
  } finally {
    await client.end();
  }
  let kernel = 'unknown';
  try {
    kernel = readFileSync('/proc/sys/kernel/osrelease', 'utf8').trim();
  } catch {
    /* not Linux */
  }
  return {
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    postgres,
    kernel,
    loadAverage: loadAverage(),
  };
}

export function loadAverage(): number[] {
  return loadavg().map((x) => Math.round(x * 100) / 100);
}
