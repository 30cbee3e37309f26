import { describe, expect, it } from 'vitest';
import type { StatusResult } from '../connectors/index.ts';
import { compareRequest } from './reconciliation.compare.ts';
import { type OurRequest, parseStatement } from './index.ts';

const row = (status: string, change: Partial<OurRequest<string>> = {}): OurRequest<string> => ({
  id: 'top_1',
  mode: 'test',
  reference: 'ref-1',
  amount_minor: 5000n,
  currency: 'XAF',
  status,
  created_at: new Date('2026-11-01T10:00:00Z'),
  ...change,
});
const says = (status: 'PENDING' | 'SUCCESSFUL' | 'FAILED', amount = 5000n, currency: 'XAF' | 'EUR' = 'XAF'): StatusResult => ({ status, amount, currency });
const kinds = (v: ReturnType<typeof compareRequest>) => (v.type === 'mismatched' ? v.mismatches.map((m) => m.kind) : v.type);

describe('compareRequest', () => {
  it('agrees when the final states, amount and currency match; a FAILED request the provider never saw agrees too', () => {
    expect(kinds(compareRequest('topup', row('SUCCEEDED'), says('SUCCESSFUL')))).toBe('agreed');
    expect(kinds(compareRequest('topup', row('FAILED'), says('FAILED')))).toBe('agreed');
    expect(kinds(compareRequest('payout', row('PAID'), says('SUCCESSFUL')))).toBe('agreed');
    expect(kinds(compareRequest('payout', row('FAILED'), { status: 'NOT_FOUND' }))).toBe('agreed');
  });

  it('reports status both ways, a provider still PENDING, amount or currency, and money moved for a reference the provider lacks', () => {
    expect(kinds(compareRequest('topup', row('SUCCEEDED'), says('FAILED')))).toEqual(['status']);
    expect(kinds(compareRequest('topup', row('FAILED'), says('SUCCESSFUL')))).toEqual(['status']);
    expect(kinds(compareRequest('payout', row('PAID'), says('PENDING')))).toEqual(['status']);
    // A top-up is SUCCEEDED, not PAID: a payout's word on a top-up is not success.
    expect(kinds(compareRequest('topup', row('PAID'), says('SUCCESSFUL')))).toEqual(['status']);
    expect(kinds(compareRequest('topup', row('SUCCEEDED'), says('SUCCESSFUL', 4999n)))).toEqual(['amount']);
    expect(kinds(compareRequest('topup', row('SUCCEEDED'), says('SUCCESSFUL', 5000n, 'EUR')))).toEqual(['amount']);
    // The top-up service fails a top-up the provider settled for another amount: both show.
    expect(kinds(compareRequest('topup', row('FAILED'), says('SUCCESSFUL', 6000n)))).toEqual(['status', 'amount']);
    expect(kinds(compareRequest('payout', row('PAID'), { status: 'NOT_FOUND' }))).toEqual(['missing_at_provider']);
  });

  it('PENDING here is in flight whatever the provider says; UNKNOWN is unverified, never agreement', () => {
    expect(compareRequest('topup', row('PENDING'), says('SUCCESSFUL'))).toMatchObject({ type: 'in_flight', entry: { provider: { status: 'SUCCESSFUL' } } });
    expect(compareRequest('topup', row('PENDING'), { status: 'UNKNOWN', reason: 'HTTP 500' })).toMatchObject({ type: 'in_flight' });
    expect(compareRequest('topup', row('SUCCEEDED'), { status: 'UNKNOWN', reason: 'HTTP 500' })).toMatchObject({
      type: 'unverified',
      entry: { reason: 'HTTP 500' },
    });
    expect(compareRequest('payout', row('FAILED'), { status: 'UNKNOWN', reason: 'timeout' })).toMatchObject({ type: 'unverified' });
  });

  it('shows amounts as decimal strings of the currency', () => {
    const v = compareRequest('payout', row('PAID', { amount_minor: 1250n, currency: 'EUR' }), says('SUCCESSFUL', 1200n, 'EUR'));
    expect(v).toMatchObject({
      type: 'mismatched',
      mismatches: [{ ours: { amount: '12.50' }, provider: { amount: '12.00' }, detail: 'we have 12.50 EUR, the provider 12.00 EUR' }],
    });
  });
});

describe('parseStatement', () => {
  const header = 'reference,kind,status,amount,currency,created_at';

  it('reads the columns in any order and case, ignores others, quotes and a BOM, normalises the reference', () => {
    const rows = parseStatement(
      '\uFEFFNote,Created_At,Currency,Amount,Status,Kind,Reference,External_Id\r\n' +
        '"a, b",2026-11-01T10:00:00+01:00,xaf,5000,successful,Collection,ABC-1,top_1\r\n\r\n' +
        'c,2026-11-01T11:00:00Z,EUR,12.50,FAILED,disbursement,abc-2,\r\n',
    );
    expect(rows).toEqual([
      {
        kind: 'collection',
        reference: 'abc-1',
        status: 'SUCCESSFUL',
        amount: '5000',
        currency: 'XAF',
        createdAt: new Date('2026-11-01T09:00:00Z'),
        externalId: 'top_1',
      },
      { kind: 'disbursement', reference: 'abc-2', status: 'FAILED', amount: '12.50', currency: 'EUR', createdAt: new Date('2026-11-01T11:00:00Z') },
    ]);
    expect(parseStatement(`${header}\n`)).toEqual([]);
  });

  it('refuses what it cannot read exactly, naming the line', () => {
    const bad = (text: string, message: RegExp) => expect(() => parseStatement(text)).toThrow(message);
    bad('', /empty/);
    bad('reference,kind\nx,collection\n', /missing column\(s\) status, amount, currency, created_at/);
    bad(`${header}\nx,refund,FAILED,1,XAF,2026-11-01T10:00:00Z\n`, /line 2: kind "refund"/);
    bad(`${header}\nx,collection,DONE,1,XAF,2026-11-01T10:00:00Z\n`, /line 2: status "DONE"/);
    bad(`${header}\nx,collection,FAILED,1 000,XAF,2026-11-01T10:00:00Z\n`, /amount "1 000"/);
    bad(`${header}\nx,collection,FAILED,-5,XAF,2026-11-01T10:00:00Z\n`, /amount "-5"/);
    bad(`${header}\nx,collection,FAILED,5,francs,2026-11-01T10:00:00Z\n`, /currency "francs"/);
    // A time without its offset is ambiguous: refused.
    bad(`${header}\nx,collection,FAILED,5,XAF,2026-11-01T10:00:00\n`, /created_at/);
    bad(`${header}\nx,collection,FAILED,5,XAF,01/11/2026\n`, /created_at/);
    bad(`${header}\n,collection,FAILED,5,XAF,2026-11-01T10:00:00Z\n`, /line 2: the reference is empty/);
    bad(`${header}\nx,collection,FAILED,5,XAF\n`, /statement: /);
    bad(`${header}\n"x,collection,FAILED,5,XAF,2026-11-01T10:00:00Z\n`, /statement: /);
  });
});
