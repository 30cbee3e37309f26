import { createCipheriv, createDecipheriv, createHash, randomBytes as nodeRandomBytes, timingSafeEqual } from 'node:crypto';

/** Random source, injected so tests can make it deterministic when they need to. */
export type RandomBytes = (size: number) => Buffer;
// Small draws come from a block of the CSPRNG's bytes fetched 4 KiB at a time (as Node's own
// randomUUID does): one call into OpenSSL per block instead of one per id, IV or token. Each byte
// is handed out once and wiped from the block.
const BLOCK = 4096;
let block = Buffer.alloc(0);
let offset = 0;
export const systemRandom: RandomBytes = (size) => {
  if (size > 256) return nodeRandomBytes(size);
  if (offset + size > block.length) {
    block = nodeRandomBytes(BLOCK);
    offset = 0;
  }
  const out = Buffer.from(block.subarray(offset, offset + size));
  block.fill(0, offset, offset + size);
  offset += size;
  return out;
};

/** SHA-256 of a secret (API key, session token, OTP token). Secrets are looked up by this hash. */
export function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time comparison of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const ha = sha256(a);
  const hb = sha256(b);
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

/** base62 body of a secret: `bytes` random bytes, URL- and copy-paste-safe. */
export function randomToken(random: RandomBytes, bytes: number): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let n = BigInt(`0x${random(bytes).toString('hex')}`);
  // Fixed length: log62(2^(8*bytes)) rounded up.
  const length = Math.ceil((bytes * 8) / Math.log2(62));
  let out = '';
  for (let i = 0; i < length; i++) {
    out = alphabet[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}

/** AES-256-GCM with the master key. Output: iv(12) | tag(16) | ciphertext. */
export function encrypt(masterKey: Buffer, plaintext: string, random: RandomBytes = systemRandom): Buffer {
  const iv = random(12);
  const cipher = createCipheriv('aes-256-gcm', masterKey, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

export function decrypt(masterKey: Buffer, sealed: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', masterKey, sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(12, 28));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
}
