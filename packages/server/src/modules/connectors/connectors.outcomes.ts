import { isReference } from './connectors.references.ts';
import type { ConnectorKind, ConnectorLogger } from './connectors.types.ts';

/**
 * The results every connector logs the same way: no usable answer (`UNKNOWN`) and a refusal
 * (`FAILED`), each with its reason, and a refused callback.
 */
export function outcomeLog(provider: string, log: ConnectorLogger) {
  return {
    unknown(op: string, kind: ConnectorKind, reference: string, reason: string): { status: 'UNKNOWN'; reason: string } {
      log.warn({ provider, op, kind, reference, reason }, 'mobile-money provider gave no usable answer');
      return { status: 'UNKNOWN', reason };
    },
    failed(op: string, kind: ConnectorKind, reference: string, reason: string, detail?: string): { status: 'FAILED'; reason: string } {
      log.warn({ provider, op, kind, reference, reason, detail }, 'mobile-money request refused');
      return { status: 'FAILED', reason };
    },
    refused(reason: string): { ok: false; reason: string } {
      log.warn({ provider, reason }, 'mobile-money callback refused');
      return { ok: false, reason };
    },
  };
}

/**
 * The `{kind}/{reference}/{token}` a connector put at the end of a callback URL it gave the
 * provider, or why it is not there.
 */
export function callbackTarget(url: string): { ok: true; kind: ConnectorKind; reference: string; token: string } | { ok: false; reason: string } {
  let segments: string[];
  try {
    segments = new URL(url, 'http://callback.invalid').pathname.split('/').filter((s) => s !== '');
  } catch {
    return { ok: false, reason: 'the callback URL cannot be read' };
  }
  const [kind, reference, token] = segments.slice(-3);
  if (kind !== 'collection' && kind !== 'disbursement') return { ok: false, reason: 'the callback URL names no product' };
  if (reference === undefined || token === undefined || !isReference(reference)) return { ok: false, reason: 'the callback URL token does not match' };
  return { ok: true, kind, reference, token };
}

/** A callback body as a string (raw), or the JSON the route already parsed, as an object. */
export function bodyObject(body: unknown): unknown {
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) return body;
  try {
    return JSON.parse(body.toString());
  } catch {
    return undefined;
  }
}
