import { describe, expect, it } from 'vitest';
import { formatAmount, parseAmount } from './money.ts';

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
