import { ConfigError, type Env } from './env.ts';

export interface FeesConfig {
  /** CAISSE_FEE_PERCENT (default 1.5) in basis points. */
  bps: number;
  /** CAISSE_FEE_FIXED, e.g. "XAF:0,EUR:0.25": the fixed part per currency, in minor units (absent: 0). */
  fixedMinor: Record<string, bigint>;
}

/** CAISSE_FEE_PERCENT and CAISSE_FEE_FIXED: the default fee schedule. */
export function fees(env: Env): FeesConfig {
  const percent = env.CAISSE_FEE_PERCENT?.trim() || '1.5';
  if (!/^(100(\.0{1,2})?|[0-9]{1,2}(\.[0-9]{1,2})?)$/.test(percent)) {
    throw new ConfigError('CAISSE_FEE_PERCENT', `must be a percentage from 0 to 100 with at most 2 decimals (1.5 = 150 basis points), got "${percent}"`);
  }
  const [whole, fraction = ''] = percent.split('.');
  const bps = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  const fixedMinor: Record<string, bigint> = {};
  for (const part of (env.CAISSE_FEE_FIXED ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const m = /^([A-Z]{3}):(0|[1-9][0-9]{0,11})(?:\.([0-9]{1,2}))?$/.exec(part);
    const exponent = m ? ({ XAF: 0, XOF: 0, EUR: 2, USD: 2 } as Record<string, number>)[m[1] as string] : undefined;
    if (!m || exponent === undefined || (m[3] ?? '').length > exponent) {
      throw new ConfigError('CAISSE_FEE_FIXED', `must list CURRENCY:amount pairs such as "XAF:0,EUR:0.25" (XAF, XOF, EUR, USD), got "${part}"`);
    }
    fixedMinor[m[1] as string] = BigInt(m[2] as string) * 10n ** BigInt(exponent) + BigInt((m[3] ?? '').padEnd(exponent, '0') || '0');
  }
  return { bps, fixedMinor };
}
