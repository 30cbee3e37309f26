/** Latency samples (milliseconds) and their summary. */

export interface Summary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

export class Samples {
  private values: number[] = [];

  add(ms: number): void {
    this.values.push(ms);
  }

  get count(): number {
    return this.values.length;
  }

  merge(other: Samples): void {
    for (const v of other.values) this.values.push(v);
  }

  summary(): Summary {
    const sorted = Float64Array.from(this.values).sort();
    const at = (q: number) => (sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0));
    const sum = this.values.reduce((a, b) => a + b, 0);
    return {
      count: sorted.length,
      p50: round(at(0.5)),
      p90: round(at(0.9)),
      p99: round(at(0.99)),
      max: round(sorted.length === 0 ? 0 : (sorted[sorted.length - 1] ?? 0)),
      mean: round(sorted.length === 0 ? 0 : sum / sorted.length),
    };
  }
}

export function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** Samples per label (one per request kind), created on first use. */
export class LabelledSamples {
  readonly byLabel = new Map<string, Samples>();

  add(label: string, ms: number): void {
    let s = this.byLabel.get(label);
    if (!s) {
      s = new Samples();
      this.byLabel.set(label, s);
    }
    s.add(ms);
  }

  all(): Samples {
    const all = new Samples();
    for (const s of this.byLabel.values()) all.merge(s);
    return all;
  }

  summaries(): Record<string, Summary> {
    const out: Record<string, Summary> = {};
    for (const [label, s] of this.byLabel) out[label] = s.summary();
    out.all = this.all().summary();
    return out;
  }
}
