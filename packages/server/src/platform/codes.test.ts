import { describe, expect, it } from 'vitest';
import { codeMatches, generateCode, hashCode, maskEmail, maskPhone, OTP_RULES, sendDecision, sendRefusalDetail } from './codes.ts';

const at = (s: number) => new Date(Date.UTC(2026, 10, 1, 10, 0, 0) + s * 1000);

describe('generateCode', () => {
  it('makes 6 digits, keeping leading zeros, and rejects biased draws', () => {
    const draws = [Buffer.from([0xff, 0xff, 0xff, 0xff]), Buffer.from([0, 0, 0, 42])];
    expect(generateCode(() => draws.shift() as Buffer)).toBe('000042');
    expect(generateCode(() => Buffer.from([0, 0x0f, 0x42, 0x3f]))).toBe('999999');
  });
});

describe('code hashes', () => {
  const key = Buffer.alloc(32, 3);
  it('match only the same code for the same id and key', () => {
    const stored = hashCode(key, 'otp_1', '123456');
    expect(codeMatches(key, 'otp_1', '123456', stored)).toBe(true);
    expect(codeMatches(key, 'otp_1', '123457', stored)).toBe(false);
    expect(codeMatches(key, 'otp_2', '123456', stored)).toBe(false);
    expect(codeMatches(Buffer.alloc(32, 4), 'otp_1', '123456', stored)).toBe(false);
  });
});

describe('sendDecision', () => {
  it('allows the first send', () => {
    expect(sendDecision([], at(0))).toEqual({ allowed: true });
  });
  it('refuses a second send within 30 s, saying how long to wait', () => {
    expect(sendDecision([at(0)], at(10))).toEqual({ allowed: false, retryAfterMs: 20_000 });
    expect(sendDecision([at(0)], at(30))).toEqual({ allowed: true });
  });
  it('allows 5 sends per 15 minutes, then waits for the oldest to leave the window', () => {
    const sends = [at(0), at(60), at(120), at(180), at(240)];
    expect(sendDecision(sends, at(300))).toEqual({ allowed: false, retryAfterMs: 600_000 });
    expect(sendDecision(sends, at(900))).toEqual({ allowed: true });
    expect(sendDecision(sends.slice(0, 4), at(300))).toEqual({ allowed: true });
  });
  it('ignores sends older than the window', () => {
    expect(sendDecision([at(-OTP_RULES.sendWindowMs / 1000 - 1)], at(0))).toEqual({ allowed: true });
  });
  it('a refusal names the rule its wait comes from', () => {
    expect(sendRefusalDetail(20_000)).toBe('A code was sent moments ago; ask for another in 20 s');
    expect(sendRefusalDetail(30_000)).toBe('A code was sent moments ago; ask for another in 30 s');
    expect(sendRefusalDetail(727_000)).toBe('5 codes were sent in the last 15 minutes; ask for another in 13 min');
  });
});

describe('masking', () => {
  it('keeps the country code and the last two digits of a phone', () => {
    expect(maskPhone('+237690000089')).toBe('+237•••••••89');
    expect(maskPhone('+237690000089')).not.toContain('690000');
  });
  it('keeps the first letter and the domain of an e-mail', () => {
    expect(maskEmail('amina@example.cm')).toBe('a•••@example.cm');
  });
});
