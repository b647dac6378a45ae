import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** What Node's HTTP parser refuses, by its error code, in the platform's words. */
const REFUSALS: Record<string, [status: number, code: string, message: string]> = {
  HPE_HEADER_OVERFLOW: [431, 'headers_too_large', 'The request headers are larger than the server accepts'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request_timeout', 'The request was not received in time'],
};
const MALFORMED: [number, string, string] = [400, 'malformed_request', 'The request is not well-formed HTTP/1.1'];

/**
 * A request Node's HTTP parser refuses (broken framing, headers over the limit) never reaches
 * Express: it is answered here in the platform's error shape, instead of Node's bare 400 with an
 * empty body, and the connection is closed (its framing can no longer be trusted).
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || answering?.headersSent) return void socket.destroy();
  const [status, code, message] = REFUSALS[error.code ?? ''] ?? MALFORMED;
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
}
