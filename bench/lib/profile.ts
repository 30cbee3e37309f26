/**
 * Where the server's CPU goes, from a V8 CPU profile (`node --cpu-prof`): self time by package
 * (a node_modules package, a Caisse module, Node's internals, GC) per payment, and per request of
 * the flow. Sample times and the load generator's request windows are both CLOCK_MONOTONIC
 * (V8's TimeTicks, process.hrtime), so a sample taken while one request alone was in flight is
 * that request's.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HttpAnswer, Requester } from './load.ts';

interface CallFrame {
  functionName: string;
  url: string;
  /** 0-based, as V8 writes them. */
  lineNumber?: number;
  columnNumber?: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A span of time, in microseconds of the monotonic clock. */
export interface Window {
  from: number;
  to: number;
  label: string;
}

export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

const sourceMaps = new Map<string, { map: SourceMap; dir: string } | null>();

/**
 * The file a frame's code came from. The server runs as one esbuild bundle (dist/bundle/), whose
 * chunks mix every package: the bundle's external source map gives each position its source.
 */
export function sourceOf(frame: CallFrame): string {
  const { url } = frame;
  if (!url.includes('/dist/bundle/') || frame.lineNumber === undefined) return url;
  const file = url.startsWith('file:') ? fileURLToPath(url) : url;
  let entry = sourceMaps.get(file);
  if (entry === undefined) {
    const mapFile = `${file}.map`;
    entry = existsSync(mapFile) ? { map: new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))), dir: dirname(mapFile) } : null;
    sourceMaps.set(file, entry);
  }
  if (!entry) return url;
  const found = entry.map.findEntry(frame.lineNumber, frame.columnNumber ?? 0) as { originalSource?: string };
  if (!found.originalSource) return url;
  const source = found.originalSource.startsWith('file:') ? fileURLToPath(found.originalSource) : found.originalSource;
  return resolve(entry.dir, source);
}

/** The group a frame's self time counts for. */
export function groupOf(frame: CallFrame): string {
  const { functionName } = frame;
  const url = sourceOf(frame);
  if (url === '') {
    if (functionName === '(garbage collector)') return 'GC';
    if (functionName === '(program)') return 'V8 and native (program)';
    if (functionName === '(idle)') return 'idle';
    // Node's stream bindings: the system calls that write to the HTTP clients and to PostgreSQL.
    if (/^write(v|String|Buffer|Utf8String|Latin1String|AsciiString|Ucs2String)$/.test(functionName)) return 'socket writes (native)';
    return 'V8 builtins';
  }
  const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return pkg[1] as string;
  const own = /\/packages\/server\/(?:dist|src)\/(modules\/[^/]+|platform\/http|platform|[^/]+\.[jt]s)/.exec(url);
  if (own) return `caisse: ${(own[1] as string).replace(/^modules\//, '').replace(/\.[jt]s$/, '')}`;
  const workspace = /\/packages\/([^/]+)\/(?:dist|src)\//.exec(url);
  if (workspace) return `@caisse/${workspace[1]}`;
  if (url.startsWith('node:') || !url.includes('/')) return 'node internals';
  return 'other';
}

export interface SelfTimes {
  /** Sampled microseconds by group, idle excluded. */
  byGroup: Map<string, number>;
  /** Sampled microseconds by function (`name (group)`). */
  byFunction: Map<string, number>;
  total: number;
}

function add(map: Map<string, number>, key: string, us: number) {
  map.set(key, (map.get(key) ?? 0) + us);
}

/** Reads the newest .cpuprofile of `dir`. */
export function readProfile(dir: string): CpuProfile {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort();
  const newest = files.at(-1);
  if (!newest) throw new Error(`no .cpuprofile in ${dir}: did the server exit cleanly?`);
  return JSON.parse(readFileSync(join(dir, newest), 'utf8')) as CpuProfile;
}

/** Self time of the samples inside each window, by the window's label ('' for one window of everything). */
export function selfTimes(profile: CpuProfile, windows: Window[]): Map<string, SelfTimes> {
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  // One look-up in the source maps per node, not per sample.
  const groups = new Map(profile.nodes.map((n) => [n.id, groupOf(n.callFrame)]));
  const sorted = [...windows].sort((a, b) => a.from - b.from);
  const out = new Map<string, SelfTimes>();
  let at = profile.startTime;
  let w = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    // A sample stands for the time since the previous one.
    while (w < sorted.length && (sorted[w] as Window).to < at) w++;
    const window = sorted[w];
    if (!window || window.from > at) continue;
    const frame = frames.get(profile.samples[i] as number);
    const group = groups.get(profile.samples[i] as number);
    if (!frame || group === undefined) continue;
    if (group === 'idle') continue;
    let times = out.get(window.label);
    if (!times) out.set(window.label, (times = { byGroup: new Map(), byFunction: new Map(), total: 0 }));
    add(times.byGroup, group, delta);
    add(times.byFunction, `${frame.functionName || '(anonymous)'} (${group})`, delta);
    times.total += delta;
  }
  return out;
}

/** A Requester that records when each request was in flight, labelled by `labelOf(path)`. */
export function recording(http: Requester, labelOf: (path: string) => string, windows: Window[]): Requester {
  return {
    async request(method: 'GET' | 'POST' | 'DELETE', path: string, headers: Record<string, string>, body?: unknown): Promise<HttpAnswer> {
      const from = monotonicMicros();
      try {
        return await http.request(method, path, headers, body);
      } finally {
        windows.push({ from, to: monotonicMicros(), label: labelOf(path) });
      }
    },
  };
}

/** The top `n` entries of a map of microseconds, largest first. */
export function top(map: Map<string, number>, n: number): [string, number][] {
  return [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
}
