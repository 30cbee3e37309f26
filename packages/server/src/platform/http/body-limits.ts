import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { ApiError } from '../errors.ts';
import { jsonErrorPosition } from './json-position.ts';

/** Objects and arrays may nest this deep in a body; deeper is 400 `json_invalid`. */
export const MAX_JSON_DEPTH = 32;

/**
 * The deepest nesting of objects and arrays in a JSON text, counted without parsing it, so a
 * hostile body cannot make a later recursive walk overflow the stack. Stops counting past `max`.
 */
export function jsonDepth(text: string, max = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > max) return deepest;
      }
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return deepest;
}

/**
 * Parses a request body: valid JSON, at most MAX_JSON_DEPTH deep, without prototype-pollution keys.
 * Nothing at all is no body (undefined), as without a content type: HTTP clients that set the JSON
 * content type on every request send it on body-less operations (a cancel, a whole refund) too.
 */
export function parseJsonBody(text: string): unknown {
  if (text.length === 0) return undefined;
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw new ApiError('json_invalid', `The body nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels`);
  }
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    if (err instanceof SyntaxError && /forbidden (prototype|constructor) property/.test(err.message)) {
      throw new ApiError('json_invalid', 'The body contains a "__proto__" or "constructor.prototype" member, which is refused');
    }
    const where = jsonErrorPosition(text);
    throw new ApiError('json_invalid', where === undefined ? 'The body could not be parsed as JSON' : `The body is not valid JSON at ${where}`);
  }
}

function contentLength(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^\d+$/.test(raw)) return undefined;
  return Number(raw);
}

/**
 * Bodies are JSON of at most `bodyLimit` bytes (docs/spec/request-rules.md: 64 KiB, 413). A declared length over
 * the limit is refused before authentication (`assertBodyLength`, in the request hooks), so an
 * oversized body costs no database work; a body sent without a length is cut off by the parser at
 * the same limit.
 */
export function assertBodyLength(request: FastifyRequest, bodyLimit: number): void {
  const length = contentLength(request.headers['content-length']);
  if (length !== undefined && length > bodyLimit) {
    throw new ApiError('payload_too_large', `The body is larger than ${bodyLimit / 1024} KiB`);
  }
}

/** JSON is UTF-8 (RFC 8259): a body with bytes that are not is refused, not read with U+FFFD in their place. */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
export function decodeJsonBody(body: Buffer): string {
  try {
    return utf8.decode(body);
  } catch {
    throw new ApiError('json_invalid', 'The body is not valid UTF-8');
  }
}

/** JSON bodies only, parsed by `parseJsonBody`. */
export function registerJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(decodeJsonBody(body as Buffer)));
    } catch (err) {
      done(err as ApiError, undefined);
    }
  });
}
