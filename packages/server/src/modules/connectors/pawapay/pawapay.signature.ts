import { createHash, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { safeEqual } from '../../../platform/crypto.ts';

/**
 * pawaPay's signed callbacks: HTTP Message Signatures (RFC 9421) over the request's method,
 * authority, path and headers, with the body bound by `Content-Digest` (RFC 9530). pawaPay signs
 * with a key whose public half `GET /v2/public-key/http` gives, named by `keyid`; it adds a
 * `Signature-Date` header of its own. We check what we can check without trusting the sender:
 * the digest against the raw body, the signature against the key, and that it is recent.
 */

/** How far a signature's `created` may be from our clock, either way: older ones are replays. */
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

/** What the signature must cover at least: the body (by its digest) and where it was sent. */
const REQUIRED_COMPONENTS = ['@method', '@path', 'content-digest'];

export type Algorithm = 'ecdsa-p256-sha256' | 'rsa-pss-sha512' | 'rsa-v1_5-sha256';

/** `sha-512=:…:` (or sha-256) of a body. */
export function contentDigest(body: string, alg: 'sha-256' | 'sha-512' = 'sha-512'): string {
  return `${alg}=:${createHash(alg === 'sha-256' ? 'sha256' : 'sha512')
    .update(body, 'utf8')
    .digest('base64')}:`;
}

/** Whether a `Content-Digest` header holds a digest of `body` we can check, and it matches. */
export function checkContentDigest(header: string, body: string): boolean {
  const entries = header.split(',').map((e) => /^\s*(sha-256|sha-512)=:([A-Za-z0-9+/=]+):\s*$/.exec(e));
  const known = entries.filter((m): m is RegExpExecArray => m !== null);
  if (known.length === 0) return false;
  return known.every((m) => safeEqual(contentDigest(body, m[1] as 'sha-256' | 'sha-512'), `${m[1]}=:${m[2]}:`));
}

/** A message as the signature covers it: its method, authority, path (and query) and headers by lower-case name. */
export interface SignedMessage {
  method: string;
  authority: string;
  path: string;
  query?: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

function componentValue(name: string, m: SignedMessage): string | undefined {
  switch (name) {
    case '@method':
      return m.method.toUpperCase();
    case '@authority':
      return m.authority.toLowerCase();
    case '@path':
      return m.path;
    case '@query':
      return m.query ?? '?';
    default: {
      if (name.startsWith('@')) return undefined;
      const v = m.headers[name];
      if (v === undefined) return undefined;
      return (Array.isArray(v) ? v.join(', ') : v).trim();
    }
  }
}

/** The signature base of RFC 9421 section 2.5, or undefined when a covered component is missing. */
export function signatureBase(components: readonly string[], params: string, m: SignedMessage): string | undefined {
  const lines: string[] = [];
  for (const c of components) {
    const value = componentValue(c, m);
    if (value === undefined) return undefined;
    lines.push(`"${c}": ${value}`);
  }
  lines.push(`"@signature-params": ${params}`);
  return lines.join('\n');
}

/**
 * pawaPay's own example signs ECDSA as DER (Node's and Java's default), where RFC 9421 says the
 * raw r‖s: the sandbox signs as pawaPay does, and a signature is checked in either encoding.
 */
function nodeSign(alg: Algorithm, key: KeyObject, data: Buffer): Buffer {
  if (alg === 'ecdsa-p256-sha256') return sign('sha256', data, { key, dsaEncoding: 'der' });
  if (alg === 'rsa-pss-sha512') return sign('sha512', data, { key, padding: 6, saltLength: 64 });
  return sign('sha256', data, key);
}

function nodeVerify(alg: Algorithm, key: KeyObject, data: Buffer, signature: Buffer): boolean {
  try {
    if (alg === 'ecdsa-p256-sha256')
      return signature.length === 64
        ? verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature)
        : verify('sha256', data, { key, dsaEncoding: 'der' }, signature);
    if (alg === 'rsa-pss-sha512') return verify('sha512', data, { key, padding: 6, saltLength: 64 }, signature);
    return verify('sha256', data, key, signature);
  } catch {
    return false;
  }
}

/**
 * The headers pawaPay adds to a signed callback (the sandbox's): Content-Digest, Signature-Date,
 * Signature-Input and Signature, under the label `sig-pp`.
 */
export function signCallback(
  opts: { key: KeyObject; keyId: string; alg?: Algorithm; nowMs: number; encoding?: 'der' | 'ieee-p1363' },
  m: Omit<SignedMessage, 'headers'> & { body: string; contentType: string },
): Record<string, string> {
  const alg = opts.alg ?? 'ecdsa-p256-sha256';
  const created = Math.floor(opts.nowMs / 1000);
  const headers: Record<string, string> = {
    'content-type': m.contentType,
    'content-digest': contentDigest(m.body),
    'signature-date': new Date(opts.nowMs).toISOString(),
  };
  const components = ['@method', '@authority', '@path', 'signature-date', 'content-digest', 'content-type'];
  const params = `(${components.map((c) => `"${c}"`).join(' ')});alg="${alg}";keyid="${opts.keyId}";created=${created};expires=${created + 60}`;
  const base = signatureBase(components, params, { ...m, headers }) as string;
  const data = Buffer.from(base, 'utf8');
  const signature = (
    alg === 'ecdsa-p256-sha256' && opts.encoding === 'ieee-p1363'
      ? sign('sha256', data, { key: opts.key, dsaEncoding: 'ieee-p1363' })
      : nodeSign(alg, opts.key, data)
  ).toString('base64');
  return { ...headers, 'signature-input': `sig-pp=${params}`, signature: `sig-pp=:${signature}:` };
}

interface ParsedInput {
  label: string;
  components: string[];
  params: string;
  alg?: string;
  keyid?: string;
  created?: number;
  expires?: number;
}

/** Parses `label=("a" "b");alg="…";keyid="…";created=1;expires=2`, one entry per label. */
export function parseSignatureInput(header: string): ParsedInput[] {
  const out: ParsedInput[] = [];
  const re = /([a-z][a-z0-9_.*-]*)=(\(((?:\s*"[^"]*")*)\s*\)((?:;[a-z][a-z0-9_.*-]*=(?:"[^"]*"|-?[0-9]+))*))/gi;
  for (const m of header.matchAll(re)) {
    const components = [...(m[3] ?? '').matchAll(/"([^"]*)"/g)].map((c) => c[1] as string);
    const entry: ParsedInput = { label: m[1] as string, components, params: m[2] as string };
    for (const p of (m[4] ?? '').matchAll(/;([a-z][a-z0-9_.*-]*)=("([^"]*)"|(-?[0-9]+))/gi)) {
      const name = (p[1] as string).toLowerCase();
      const text = p[3];
      const num = p[4] === undefined ? undefined : Number(p[4]);
      if (name === 'alg') entry.alg = text;
      else if (name === 'keyid') entry.keyid = text;
      else if (name === 'created') entry.created = num;
      else if (name === 'expires') entry.expires = num;
    }
    out.push(entry);
  }
  return out;
}

/** `label=:base64:` entries of a `Signature` header. */
function parseSignatures(header: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const m of header.matchAll(/([a-z][a-z0-9_.*-]*)=:([A-Za-z0-9+/=]*):/gi)) out.set(m[1] as string, Buffer.from(m[2] as string, 'base64'));
  return out;
}

/** A public key as pawaPay gives it: PEM, or base64 of its DER (SubjectPublicKeyInfo). */
export function publicKeyOf(text: string): KeyObject | undefined {
  try {
    return text.includes('-----BEGIN') ? createPublicKey(text) : createPublicKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'spki' });
  } catch {
    return undefined;
  }
}

/**
 * An account's pinned public keys (its `publicKeys` setting): `keyid:base64` entries (the base64
 * of each key's DER, as `GET /v2/public-key/http` gives it), separated by commas. The keys by id,
 * or why the text cannot be read (never quoting a key: it is long, not secret).
 */
export function parsePinnedKeys(text: string): { ok: true; keys: Map<string, KeyObject> } | { ok: false; message: string } {
  const keys = new Map<string, KeyObject>();
  for (const [i, entry] of text.split(',').entries()) {
    const at = entry.indexOf(':');
    const id = entry.slice(0, at).trim();
    if (at <= 0 || id === '') return { ok: false, message: `entry ${i + 1} is not keyid:base64 (the key's id, a colon, the base64 of its DER)` };
    const key = publicKeyOf(entry.slice(at + 1).trim());
    if (key === undefined) return { ok: false, message: `the key ${id} is not a public key (base64 of its DER, SubjectPublicKeyInfo)` };
    if (keys.has(id)) return { ok: false, message: `the key id ${id} appears twice` };
    keys.set(id, key);
  }
  return { ok: true, keys };
}

const ALGORITHMS: readonly string[] = ['ecdsa-p256-sha256', 'rsa-pss-sha512', 'rsa-v1_5-sha256'];

/**
 * Checks a callback's signature: one labelled signature whose input covers at least the method,
 * path and Content-Digest, made by a key `keyOf` knows, recent, over a digest that matches the
 * raw body. The reason says what failed, never a header's value.
 */
export async function verifyCallbackSignature(
  m: SignedMessage,
  body: string,
  nowMs: number,
  keyOf: (keyid: string) => Promise<KeyObject | undefined>,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const header = (name: string) => {
    const v = m.headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  };
  const input = header('signature-input');
  const signatures = header('signature');
  const digest = header('content-digest');
  if (input === undefined || signatures === undefined) return { ok: false, reason: 'the callback is not signed (no Signature or Signature-Input)' };
  if (digest === undefined) return { ok: false, reason: 'the callback has no Content-Digest' };
  if (!checkContentDigest(digest, body)) return { ok: false, reason: 'the Content-Digest does not match the body' };
  const values = parseSignatures(signatures);
  const entries = parseSignatureInput(input).filter((e) => values.has(e.label));
  if (entries.length === 0) return { ok: false, reason: 'the Signature-Input cannot be read' };
  let reason = 'the signature does not match';
  for (const e of entries) {
    if (!REQUIRED_COMPONENTS.every((c) => e.components.includes(c))) {
      reason = 'the signature does not cover the method, path and Content-Digest';
      continue;
    }
    if (e.alg === undefined || !ALGORITHMS.includes(e.alg)) {
      reason = 'the signature algorithm is not one we check';
      continue;
    }
    if (
      e.created === undefined ||
      Math.abs(nowMs - e.created * 1000) > SIGNATURE_TOLERANCE_MS ||
      (e.expires !== undefined && nowMs > e.expires * 1000 + 1000)
    ) {
      reason = 'the signature is too old or in the future';
      continue;
    }
    const key = e.keyid === undefined ? undefined : await keyOf(e.keyid);
    if (key === undefined) {
      reason = 'the signature names a key pawaPay does not publish';
      continue;
    }
    const base = signatureBase(e.components, e.params, m);
    if (base === undefined) {
      reason = 'a component the signature covers is missing';
      continue;
    }
    if (nodeVerify(e.alg as Algorithm, key, Buffer.from(base, 'utf8'), values.get(e.label) as Buffer)) return { ok: true };
  }
  return { ok: false, reason };
}
