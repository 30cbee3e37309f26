import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addMinor, CURRENCIES, type Currency, formatAmount, MAX_MINOR_UNITS, type MinorUnits, minorUnits, parseAmount, subtractMinor } from './money.ts';

describe('parseAmount', () => {
  it.each([
    ['5000', 'XAF', 5000n],
    ['1', 'XOF', 1n],
    ['12.5', 'EUR', 1250n],
    ['12.50', 'USD', 1250n],
    ['0.01', 'EUR', 1n],
    ['999999999999', 'XAF', 999_999_999_999n],
    ['9999999999.99', 'EUR', 999_999_999_999n],
  ] as const)('%s %s → %s', (input, currency, minor) => {
    expect(parseAmount(input, currency)).toBe(minor);
  });

  it.each([
    ['5000.5', 'XAF'],
    ['5000.0', 'XAF'],
    ['-5', 'XAF'],
    ['0', 'XAF'],
    ['0.00', 'EUR'],
    ['1e3', 'XAF'],
    [' 5000', 'XAF'],
    ['5000 ', 'XAF'],
    ['1000000000000', 'XAF'],
    ['10000000000.00', 'EUR'],
    ['12.345', 'EUR'],
    ['0x10', 'XAF'],
    ['05', 'XAF'],
    ['', 'XAF'],
    ['+5', 'XAF'],
    ['1,000', 'XAF'],
    [5000, 'XAF'],
    [null, 'XAF'],
  ] as const)('%o %s is amount_invalid', (input, currency) => {
    expect(() => parseAmount(input, currency)).toThrow(expect.objectContaining({ code: 'amount_invalid' }));
  });
});

describe('formatAmount', () => {
  it('formats with the currency exponent', () => {
    expect(formatAmount(5000n, 'XAF')).toBe('5000');
    expect(formatAmount(1250n, 'EUR')).toBe('12.50');
    expect(formatAmount(5n, 'USD')).toBe('0.05');
    expect(formatAmount(-1250n, 'EUR')).toBe('-12.50');
  });
});

describe('MinorUnits', () => {
  it('minorUnits takes database values as the driver answers them: bigint, safe integer, digits', () => {
    expect(minorUnits(0n)).toBe(0n);
    expect(minorUnits(5000)).toBe(5000n);
    expect(minorUnits('999999999999')).toBe(999_999_999_999n);
    // A sum can exceed the largest single amount: the brand bounds the sign, not the size.
    expect(minorUnits('99999999999999999999')).toBe(99_999_999_999_999_999_999n);
  });

  it.each([-1n, -5000, '-1', 1.5, '1.5', '12.50', Number.MAX_SAFE_INTEGER + 1, Number.NaN, '', ' 5', '1e3'])(
    'minorUnits(%o) throws rather than round or wrap',
    (value) => {
      expect(() => minorUnits(value)).toThrow(RangeError);
    },
  );

  it('subtractMinor refuses a result below zero; addMinor sums', () => {
    expect(subtractMinor(minorUnits(5000n), minorUnits(75n))).toBe(4925n);
    expect(subtractMinor(minorUnits(75n), minorUnits(75n))).toBe(0n);
    expect(() => subtractMinor(minorUnits(74n), minorUnits(75n))).toThrow(RangeError);
    expect(addMinor()).toBe(0n);
    expect(addMinor(MAX_MINOR_UNITS, MAX_MINOR_UNITS, minorUnits(2n))).toBe(2_000_000_000_000n);
  });

  it('a plain bigint does not pass for an amount', () => {
    const take = (amount: MinorUnits) => amount;
    // @ts-expect-error: a bigint of unknown origin is not MinorUnits until minorUnits() checks it
    take(5000n);
    expect(take(parseAmount('5000', 'XAF'))).toBe(5000n);
  });
});

describe('parseAmount ∘ formatAmount', () => {
  it('formatAmount writes what parseAmount reads back, for every amount and currency', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: MAX_MINOR_UNITS }), fc.constantFrom(...(Object.keys(CURRENCIES) as Currency[])), (minor, currency) => {
        const text = formatAmount(minor, currency);
        return parseAmount(text, currency) === minor && text.split('.')[1]?.length === (CURRENCIES[currency] || undefined);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['5000', 'XAF'],
    ['12.50', 'EUR'],
    ['0.01', 'USD'],
    ['1', 'XOF'],
    ['9999999999.99', 'EUR'],
    ['999999999999', 'XAF'],
  ] as const)('%s %s round-trips unchanged', (text, currency) => {
    expect(formatAmount(parseAmount(text, currency), currency)).toBe(text);
  });

  it('formats the largest amount and the smallest unit exactly (no float on the way)', () => {
    expect(formatAmount(MAX_MINOR_UNITS, 'EUR')).toBe('9999999999.99');
    expect(formatAmount(MAX_MINOR_UNITS, 'XAF')).toBe('999999999999');
    expect(formatAmount(1n, 'EUR')).toBe('0.01');
    expect(formatAmount(0n, 'EUR')).toBe('0.00');
  });
});
