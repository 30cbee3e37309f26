import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { ApiError } from '../errors.ts';
import { LATEST_API_VERSION } from '../versioning.ts';
import { problemAnswer } from './errors.ts';
import { securityHeaders } from './security-headers.ts';

/** What Node's HTTP parser reports before any route or hook sees the request. */
function refusalOf(err: NodeJS.ErrnoException): ApiError {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return new ApiError('request_timeout', 'The request line and headers did not arrive in time');
  if (err.code === 'HPE_HEADER_OVERFLOW') return new ApiError('headers_too_large', 'The request line and headers together must stay under 16 KiB');
  return new ApiError('request_malformed', 'The request could not be read as HTTP/1.1');
}

/**
 * The raw answer to a request Node could not parse (Fastify's `clientErrorHandler`): the same RFC
 * 9457 body, `request-id` and security headers as any other answer, then the connection closes,
 * since what follows on it cannot be trusted to start a request.
 */
export function clientErrorAnswer(err: NodeJS.ErrnoException, requestId: string): string {
  const answer = problemAnswer(refusalOf(err), requestId);
  const headers = {
    ...securityHeaders('api'),
    ...answer.headers,
    'request-id': requestId,
    'pay-version': LATEST_API_VERSION,
    connection: 'close',
    'content-length': String(Buffer.byteLength(answer.body)),
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n${lines.join('\r\n')}\r\n\r\n${answer.body}`;
}

export function clientErrorHandler(newRequestId: () => string): (err: NodeJS.ErrnoException, socket: Socket) => void {
  return (err, socket) => {
    // A reset connection has nobody to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    if (socket.writable) socket.write(clientErrorAnswer(err, newRequestId()));
    socket.destroy();
  };
}
