import { maxHeaderSize, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** What Node's parser refuses, by its error code: the status Node itself would send, and why, in words. */
function refusal(code: string | undefined): [number, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, `Request header fields too large: the request line and headers must fit in ${maxHeaderSize} bytes`];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'Request body too large: its chunk extensions are too long'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'Request timeout: the request was not received in time'];
    default:
      return [400, 'Malformed HTTP request'];
  }
}

/**
 * Requests Node's HTTP parser refuses before any route sees them (a request line and headers over
 * `maxHeaderSize`, a request that is not HTTP) are answered in the contract's Error shape, like
 * every other error, instead of Node's bare status line with no body. This covers every route,
 * the lean webhook routes included, since it happens before routing.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // The peer has gone, or a response was already under way on this connection: nothing to say.
    if (error.code === 'ECONNRESET' || !socket.writable || (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, message] = refusal(error.code);
    const body = JSON.stringify({ error: message });
    socket.end(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Cache-Control: no-store',
        'X-Content-Type-Options: nosniff',
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  });
}
