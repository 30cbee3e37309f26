import { describe, expect, it } from 'vitest';
import en from '../src/messages/en.json' with { type: 'json' };
import fr from '../src/messages/fr.json' with { type: 'json' };
import { CHECKOUT_ERROR_CODES, CUSTOMER_MESSAGES, errorMessageId } from '../src/i18n.tsx';

/** The ICU arguments a message takes: `{amount}`, `{count, plural, …}`. */
const argumentsOf = (text: string) => [...new Set([...text.matchAll(/\{(\w+)[,}]/g)].map((m) => m[1]))].sort();

describe('the checkout catalogues', () => {
  it('have the same messages in French and English, each with the same arguments', () => {
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort());
    for (const [id, text] of Object.entries(en)) expect(argumentsOf(fr[id as keyof typeof fr]), id).toEqual(argumentsOf(text));
  });

  it.each(CHECKOUT_ERROR_CODES)('%s has its own text in both languages', (code) => {
    const id = errorMessageId(code);
    expect(id).not.toBe(code === 'unexpected_error' ? '' : 'error.unexpected_error');
    expect(en[id].trim()).not.toBe('');
    expect(fr[id].trim()).not.toBe('');
    expect(fr[id]).not.toBe(en[id]);
    expect(CUSTOMER_MESSAGES[code]).toBe(en[id]);
  });

  it('lists what the API answers on the checkout calls, among them limits, providers and frozen merchants', () => {
    for (const code of ['limit_exceeded', 'provider_unavailable', 'merchant_frozen', 'otp_rate_limited', 'insufficient_funds', 'intent_expired'])
      expect(CHECKOUT_ERROR_CODES).toContain(code);
    // Over a limit, the text says what to do.
    expect(en['error.limit_exceeded']).toMatch(/Approve or decline/);
    expect(fr['error.limit_exceeded']).toMatch(/Approuvez-les ou refusez-les/);
  });

  it('a code the checkout does not know reads as a general error, not as the API said it', () => {
    expect(errorMessageId('something_new')).toBe('error.unexpected_error');
  });

  it('names no provider: a provider is a parameter of the texts that need one', () => {
    for (const catalogue of [en, fr]) {
      for (const [id, text] of Object.entries(catalogue)) expect(text, id).not.toMatch(/MTN|MoMo|Orange|Wave/);
    }
    expect(argumentsOf(en['checkout.topUp'])).toContain('provider');
  });
});
