import { describe, expect, it } from 'vitest';
import { emailLinkBase } from './public-url.ts';

const config = { publicUrl: undefined, host: '0.0.0.0', port: 8080, security: { tls: undefined } } as unknown as Parameters<typeof emailLinkBase>[0];

describe('the base of e-mailed links', () => {
  it('is CAISSE_PUBLIC_URL when set, else the address the server listens on', () => {
    expect(emailLinkBase({ ...config, publicUrl: 'https://pay.example.com/' })).toBe('https://pay.example.com');
    expect(emailLinkBase(config)).toBe('http://localhost:8080');
    expect(emailLinkBase({ ...config, host: '127.0.0.1' }, { address: () => ({ address: '127.0.0.1', family: 'IPv4', port: 41234 }) })).toBe(
      'http://127.0.0.1:41234',
    );
    expect(emailLinkBase({ ...config, host: '::1', security: { tls: { certFile: 'c', keyFile: 'k' } } } as typeof config)).toBe('https://[::1]:8080');
  });
});
