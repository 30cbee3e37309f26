/** The Markdown table of a bench run (the JSON beside it has every figure). */
import type { FlowRun, Results } from '../run.ts';
import { comparisonSection } from './compare.ts';
import { type CpuUse, inH } from './cpu.ts';
import type { MemoryReport } from './processes.ts';
import type { Summary } from './stats.ts';

const STEP_ORDER = ['create', 'init', 'code', 'verify', 'charge', 'status', 'all'];

function latencyRows(latency: Record<string, Summary>): string[] {
  return STEP_ORDER.filter((s) => latency[s]).map((s) => {
    const l = latency[s] as Summary;
    return `| ${s} | ${l.count} | ${l.p50} | ${l.p90} | ${l.p99} | ${l.max} |`;
  });
}

/** One line: what a payment costs each party in CPU, and how busy the machine was. */
export function cpuLine(cpu: CpuUse | undefined, loadGenerator = 'load generator', H?: number, unit = 'payment'): string {
  if (!cpu) return '';
  const u = cpu.perUnitMs;
  // Each figure in ms and in H (the server CPU of one hello-world request of the same run).
  const h = (ms: number) => (H && H > 0 ? ` = ${inH(ms, H)} H` : '');
  const total = Math.round((u.server + u.postgres + (u.pgbouncer ?? 0) + (u.sandbox ?? 0) + u.loadGenerator) * 100) / 100;
  const kernel = u.server > 0 ? ` (${u.serverKernel} ms${h(u.serverKernel)} of it in the kernel)` : '';
  const pgbouncer = u.pgbouncer !== undefined ? `, PgBouncer ${u.pgbouncer} ms${h(u.pgbouncer)}` : '';
  const sandbox = u.sandbox !== undefined ? `, the providers' sandbox ${u.sandbox} ms${h(u.sandbox)}` : '';
  return `CPU per ${unit}: server ${u.server} ms${h(u.server)}${kernel}, PostgreSQL ${u.postgres} ms${h(u.postgres)}${pgbouncer}${sandbox}, ${loadGenerator} ${u.loadGenerator} ms${h(u.loadGenerator)} (${total} ms${h(total)} in all); machine busy ${Math.round(cpu.machineBusy * 100)} %, stolen by the hypervisor ${Math.round(cpu.machineSteal * 100)} %.`;
}

function flowTable(title: string, run: FlowRun, H?: number): string[] {
  return [
    `**${title}**: ${run.paymentsPerSecond} payments/s (${run.requestsPerSecond} requests/s), ${run.completed} payments in ${run.seconds} s` +
      `${run.concurrency ? `, ${run.concurrency} virtual users` : ''}${run.rate ? `, open loop at ${run.rate}/s` : ''}` +
      `, errors ${run.errors}${run.dropped ? `, dropped ${run.dropped}` : ''}, load average ${run.loadAverage.join(' ')}`,
    '',
    ...(run.cpu ? [cpuLine(run.cpu, 'load generator', H), ''] : []),
    '| request | count | p50 ms | p90 ms | p99 ms | max ms |',
    '|---|---|---|---|---|---|',
    ...latencyRows(run.latency),
    '',
  ];
}

/** The direct mobile-money phase: payments, the idle server with attempts waiting, callbacks at the goal's rate. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function momoSection(m: any, H?: number): string[] {
  const perS = (ms: number) => (H ? `${ms} ms/s = ${inH(ms, H)} H/s` : `${ms} ms/s`);
  const b = m.burst;
  return [
    "## Direct mobile-money payments (the providers' sandbox in its own process)",
    '',
    `Each payment: \`POST /gateway\`, \`POST /charge\` with a ${m.provider} number the sandbox approves after about a second, the sandbox's callback (the server reads the provider's status, settles the attempt, writes \`payment.completed\`), and the browser's status reads (\`GET /gateway/sessions/…\`, ${m.statusReadsPerPayment} per payment) until SUCCEEDED. Approved after (from the charge's answer to the read that saw SUCCEEDED): p50 ${m.approvedAfter.p50} ms, p99 ${m.approvedAfter.p99} ms.`,
    '',
    ...flowTable('Open loop', m.run, H),
    `Callbacks the server handled in that loop (from its log): ${m.callbacks.count} (${Object.entries(m.callbacks.byStatus as Record<string, number>)
      .map(([k, v]) => `${v} × ${k}`)
      .join(', ')}), in the server p50 ${m.callbacks.latency.p50} ms, p99 ${m.callbacks.latency.p99} ms.`,
    '',
    ...(m.statementsPerPayment === undefined
      ? []
      : [
          `Statements the server executed (counted by a relay between it and PostgreSQL, the background loops' included): ${m.statementsPerPayment} per payment, ${m.idle.without.statementsPerSecond} per idle second (${m.idle.with.statementsPerSecond} with the attempts waiting), ${b.statementsPerCallback} per callback below. The most executed, per payment:`,
          '',
          '| per payment | statement |',
          '|---:|---|',
          ...(m.statements as { perUnit: number; sql: string }[]).map((x) => `| ${x.perUnit} | \`${x.sql.replaceAll('|', '\\|').replaceAll('`', "'")}\` |`),
          '',
        ]),
    `**Idle, with ${m.idle.waitingAttempts.toLocaleString('en')} attempts waiting on phones** (PENDING, next poll an hour away) against none: server ${perS(m.idle.with.serverMsPerSecond)} with them, ${perS(m.idle.without.serverMsPerSecond)} without (PostgreSQL ${m.idle.with.postgresMsPerSecond} and ${m.idle.without.postgresMsPerSecond} ms/s). The poller's claim: ${m.idle.claimPlan}.`,
    '',
    `**Callbacks at ${b.rate}/s** for those waiting attempts (each checked and answered by a status read at the sandbox, which never saw them: nothing to settle): ${b.handledPerSecond}/s handled over ${b.seconds} s, ${b.sent} sent, ${b.dropped ?? 0} not sent (2 000 in flight), errors ${b.errors}; answers ${Object.entries(
      b.byStatus as Record<string, number>,
    )
      .map(([k, v]) => `${v} × ${k}`)
      .join(', ')}; latency from the scheduled send p50 ${b.latency.p50} ms, p99 ${b.latency.p99} ms, max ${b.latency.max} ms.`,
    '',
    cpuLine(b.cpu, 'load generator', H, 'callback'),
    '',
  ];
}

export function markdownReport(r: Results): string {
  const m = r.machine;
  const p = r.phases as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const H = r.H?.ms;
  const out: string[] = [
    `# Caisse bench: ${r.label}`,
    '',
    `Run ${r.startedAt} → ${r.finishedAt ?? '?'}${r.config.quick ? ' (quick run: short phases, small tables)' : ''}.`,
    '',
    '| machine | |',
    '|---|---|',
    `| CPU | ${m?.cpuModel ?? '?'}, ${m?.cores ?? '?'} cores |`,
    `| memory | ${m?.memoryGb ?? '?'} GB |`,
    `| Node | ${m?.node ?? '?'} |`,
    `| PostgreSQL | ${m?.postgres ?? '?'} |`,
    `| kernel | ${m?.kernel ?? '?'} |`,
    `| load average at the end (1, 5, 15 min) | ${m?.loadAverage.join(', ') ?? '?'} |`,
    '',
    `Phases: ${r.config.phases.join(', ')}; ${r.config.durationS} s each after ${r.config.warmupS} s of warm-up; ${r.config.concurrency} virtual users in closed loops.`,
    '',
    r.H
      ? `**H = ${r.H.ms} ms**: the server CPU (from /proc) of one Fastify hello-world request in this run (${r.H.requests} requests, ${r.config.concurrency} virtual users, the same load client as every phase). Every CPU figure below is also given in H, which drifts far less than milliseconds when other work shares the cores.`
      : 'H (the server CPU of one hello-world request) was not measured in this run: add the `hello` phase to have every CPU figure in H.',
    '',
    '## Goals',
    '',
    '| goal | target | measured | met |',
    '|---|---|---|---|',
    ...r.goals.map((g) => `| ${g.goal} | ${g.target} | ${g.measured} | ${g.met === null ? '–' : g.met ? 'yes' : 'no'} |`),
    '',
    ...comparisonSection(r.comparison),
  ];
  if (p.flow) {
    out.push('## Full payment flow on PostgreSQL', '');
    if (p.flow.closedLoops?.length > 1) {
      out.push(
        'Closed loops (the peak is the best):',
        '',
        '| virtual users | payments/s | p99 ms (all requests) | errors |',
        '|---|---|---|---|',
        ...(p.flow.closedLoops as { concurrency: number; paymentsPerSecond: number; p99: number; errors: number }[]).map(
          (x) => `| ${x.concurrency} | ${x.paymentsPerSecond} | ${x.p99} | ${x.errors} |`,
        ),
        '',
      );
    }
    out.push(...flowTable('Peak (closed loop)', p.flow.peak, H), ...flowTable('At 70 % of the peak (open loop)', p.flow.at70, H));
  }
  if (p.pgbench) {
    out.push(
      '## The ceiling: the same SQL replayed with pgbench',
      '',
      `${p.pgbench.statementsPerPayment} statements (${p.pgbench.transactionsPerPayment} transactions) per payment. Ceiling ${p.pgbench.ceiling} payments/s at ${p.pgbench.ceilingClients} clients${p.ratioToCeiling !== undefined ? `; Caisse reaches **${p.ratioToCeiling}** of it` : ''}.`,
      '',
      '| protocol | clients | payments/s | avg latency ms | failed |',
      '|---|---|---|---|---|',
      ...(p.pgbench.runs as { protocol: string; clients: number; tps: number; latencyAvgMs: number; failed: number }[]).map(
        (x) => `| ${x.protocol} | ${x.clients} | ${x.tps} | ${x.latencyAvgMs} | ${x.failed} |`,
      ),
      '',
      ...(p.pgbench.ceilingCpu ? [`At the ceiling: ${cpuLine(p.pgbench.ceilingCpu, 'pgbench', H)}`, ''] : []),
    );
  }
  if (p.hello || p.create) {
    out.push('## HTTP ceiling and create-intent alone', '', '| what | requests/s | p50 ms | p99 ms |', '|---|---|---|---|');
    if (p.hello)
      out.push(
        `| Fastify hello world (server CPU ${p.hello.cpu?.perUnitMs.server ?? '?'} ms per request = 1 H) | ${p.hello.requestsPerSecond} | ${p.hello.latency.p50} | ${p.hello.latency.p99} |`,
      );
    if (p.create) out.push(`| POST /gateway | ${p.create.requestsPerSecond} | ${p.create.latency.p50} | ${p.create.latency.p99} |`);
    out.push('');
  }
  if (p.webhooks) {
    const w = p.webhooks;
    out.push(
      '## Webhooks',
      '',
      `Latency from the event's creation (in the charge's transaction) to its receipt, at ${w.latencyRun.rate} payments/s: p50 ${w.latencyRun.latency.p50} ms, p90 ${w.latencyRun.latency.p90} ms, p99 ${w.latencyRun.latency.p99} ms, max ${w.latencyRun.latency.max} ms (${w.latencyRun.received} deliveries).`,
      '',
      `Backlog of ${w.throughput.backlog} deliveries committed at once: ${w.throughput.delivered} delivered in ${w.throughput.seconds} s = **${w.throughput.deliveriesPerSecond} deliveries/s** (first after ${w.throughput.firstReceiptAfterMs} ms).`,
      '',
    );
  }
  if (p.bigtable) {
    const b = p.bigtable;
    out.push(
      '## A large intents table',
      '',
      `${b.intentsInserted.toLocaleString('en')} intents bulk-inserted (generate_series) in ${b.insertSeconds} s, on top of ${b.intentsBefore.toLocaleString('en')}. Create + charge at ${b.rate} payments/s:`,
      '',
      '| table | create p50 | create p99 | charge p50 | charge p99 |',
      '|---|---|---|---|---|',
      `| almost empty | ${b.small.create.p50} | ${b.small.create.p99} | ${b.small.charge.p50} | ${b.small.charge.p99} |`,
      `| large | ${b.large.create.p50} | ${b.large.create.p99} | ${b.large.charge.p50} | ${b.large.charge.p99} |`,
      `| ratio | ${b.ratios.createP50} | ${b.ratios.createP99} | ${b.ratios.chargeP50} | ${b.ratios.chargeP99} |`,
      '',
    );
    if (b.rollup) out.push(`The server's rollup worker caught up on ${b.rollup.hours} hours of charges in ${b.rollup.seconds} s.`, '');
    if (b.dashboard) {
      out.push('The dashboard through its HTTP routes (signed in, goal < 200 ms):', '', '| request | p50 ms | max ms | results |', '|---|---|---|---|');
      for (const [name, x] of Object.entries(b.dashboard as Record<string, { p50: number; max: number; results?: number }>))
        out.push(`| ${name} | ${x.p50} | ${x.max} | ${x.results ?? ''} |`);
      out.push('');
    }
  }
  if (p.cluster) out.push(`## ${p.cluster.apiProcesses} API processes (node:cluster)`, '', ...flowTable('Peak (closed loop)', p.cluster.peak, H));
  if (p.pglite) out.push('## Full flow on embedded PGlite', '', ...flowTable('Peak (closed loop)', p.pglite.peak, H));
  if (p.momo) out.push(...momoSection(p.momo, H));
  if (p.hosts) {
    const runs = p.hosts.runs as (FlowRun & { hosts: number })[];
    const ms = (run: FlowRun, k: 'server' | 'postgres' | 'pgbouncer' | 'loadGenerator') => run.cpu?.perUnitMs[k] ?? 0;
    out.push(
      '## Several hosts behind PgBouncer (transaction mode)',
      '',
      'API servers in network namespaces (198.18.0.11–13), every request to the next host in turn, PgBouncer and PostgreSQL and Redis shared. CPU in ms per payment:',
      '',
      '| hosts | payments/s | p99 ms (all requests) | errors | server | PostgreSQL | PgBouncer | load generator | all | all in H | machine busy |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...runs.map((r) => {
        const all = Math.round((ms(r, 'server') + ms(r, 'postgres') + ms(r, 'pgbouncer') + ms(r, 'loadGenerator')) * 100) / 100;
        return `| ${r.hosts} | ${r.paymentsPerSecond} | ${r.latency.all?.p99 ?? '?'} | ${r.errors} | ${ms(r, 'server')} | ${ms(r, 'postgres')} | ${ms(r, 'pgbouncer')} | ${ms(r, 'loadGenerator')} | ${all} | ${H ? inH(all, H) : '–'} | ${Math.round((r.cpu?.machineBusy ?? 0) * 100)} % |`;
      }),
      '',
    );
  }
  const mem = Object.entries(r.memory) as [string, MemoryReport][];
  if (mem.length > 0) {
    out.push(
      '## Memory (peak RSS)',
      '',
      '| server | processes | peak RSS of one process MB | peak RSS of all its processes MB | V8 heap used / reserved MB at the end | outside the heap MB |',
      '|---|---|---|---|---|---|',
    );
    for (const [name, x] of mem) {
      const heap = x.heapUsedMb === undefined ? '–' : `${x.heapUsedMb} / ${x.heapTotalMb}`;
      out.push(`| ${name} | ${x.processes} | ${x.peakProcessRssMb} | ${x.peakTreeRssMb} | ${heap} | ${x.externalMb ?? '–'} |`);
    }
    out.push('');
  }
  const errors = Object.entries(p).filter(([k]) => k.endsWith('Error'));
  if (errors.length > 0) out.push('## Phases that failed', '', ...errors.map(([k, v]) => `- ${k}: ${v}`), '');
  if (r.notes.length > 0) out.push('## Notes', '', ...r.notes.map((n) => `- ${n}`), '');
  return `${out.join('\n')}\n`;
}
