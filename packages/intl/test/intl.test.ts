import { describe, expect, it } from 'vitest';
import { chooseLanguage, formatAmount, formatDate, formatDateTime, languageOf, parseAcceptLanguage } from '../src/index.ts';

/** Intl separates thousands with a narrow no-break space in French; tests write a plain one. */
const plain = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');

describe('formatAmount', () => {
  it('writes amounts as Intl does in the locale (docs/spec/languages.md)', () => {
    expect(plain(formatAmount('5000', 'XAF', 'fr-CM'))).toBe('5 000 FCFA');
    expect(plain(formatAmount('5000', 'XOF', 'fr-SN'))).toBe('5 000 F CFA');
    expect(plain(formatAmount('5000', 'XAF', 'en'))).toBe('FCFA 5,000');
    expect(plain(formatAmount('12.50', 'EUR', 'fr'))).toBe('12,50 €');
    expect(formatAmount('12.50', 'EUR', 'en')).toBe('€12.50');
  });

  it('never goes through a float', () => {
    expect(plain(formatAmount('999999999999', 'XAF', 'en'))).toBe('FCFA 999,999,999,999');
    expect(formatAmount('90071992547409.93', 'EUR', 'en')).toBe('€90,071,992,547,409.93');
  });

  it('falls back to amount and code for a currency Intl refuses', () => {
    expect(formatAmount('5000', 'NOPE', 'fr')).toBe('5000 NOPE');
  });
});

describe('dates', () => {
  const at = '2026-11-23T10:00:00.000Z';
  it('follow the locale', () => {
    expect(formatDate(at, 'fr', 'UTC')).toBe('23 nov. 2026');
    expect(formatDate(at, 'en', 'UTC')).toBe('Nov 23, 2026');
    expect(formatDateTime(at, 'fr-CM', 'UTC')).toBe('23 nov. 2026, 10:00');
    expect(plain(formatDateTime(new Date(at), 'en', 'UTC'))).toBe('Nov 23, 2026, 10:00 AM');
  });
});

describe('parseAcceptLanguage', () => {
  it('orders by weight, keeps ties in order, drops q=0, * and junk', () => {
    expect(parseAcceptLanguage('en;q=0.5, fr-CM, fr;q=0.9, de;q=0, *;q=0.1, ???')).toEqual(['fr-CM', 'fr', 'en']);
    expect(parseAcceptLanguage('de, en-GB, en')).toEqual(['de', 'en-GB', 'en']);
    expect(parseAcceptLanguage(undefined)).toEqual([]);
    expect(parseAcceptLanguage('')).toEqual([]);
  });
});

describe('chooseLanguage (docs/spec/languages.md)', () => {
  it('takes the saved language first', () => {
    expect(chooseLanguage({ saved: 'en', requested: ['fr-CM'], merchantDefault: 'fr' })).toEqual({ language: 'en', locale: 'en' });
  });

  it('then the first requested language we have, keeping its region for formatting', () => {
    expect(chooseLanguage({ requested: ['de-DE', 'fr-CM', 'en'], merchantDefault: 'en' })).toEqual({ language: 'fr', locale: 'fr-CM' });
    expect(chooseLanguage({ saved: 'fr', requested: ['en-US', 'fr-SN'] })).toEqual({ language: 'fr', locale: 'fr-SN' });
    expect(chooseLanguage({ requested: 'en_GB' })).toEqual({ language: 'en', locale: 'en-GB' });
  });

  it("then the merchant's default, then French", () => {
    expect(chooseLanguage({ requested: ['de'], merchantDefault: 'en' })).toEqual({ language: 'en', locale: 'en' });
    expect(chooseLanguage({ requested: ['de'], merchantDefault: null })).toEqual({ language: 'fr', locale: 'fr' });
    expect(chooseLanguage({})).toEqual({ language: 'fr', locale: 'fr' });
  });

  it('reads only languages it has', () => {
    expect(languageOf('FR-cm')).toBe('fr');
    expect(languageOf('fra')).toBeUndefined();
    expect(languageOf(null)).toBeUndefined();
  });
});
