/**
 * Why an outbound request got no answer to read:
 * - `refused`: the outbound policy refused the address the host resolved to (nothing was sent);
 * - `unresolved`: the host name did not resolve;
 * - `unreachable`: no HTTP answer (connection refused, reset or timed out, TLS failure, not HTTP);
 * - `redirect`: too many redirects, or one to something other than http(s).
 */
export type OutboundFailure = 'refused' | 'unresolved' | 'unreachable' | 'redirect';

export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailure,
    message: string,
    /** The origin the failing hop went to (after redirects, the last one). */
    readonly origin: string,
    /** The network error code when there is one (ECONNREFUSED, UND_ERR_CONNECT_TIMEOUT...): for logs and tools, not for verify. */
    readonly code?: string,
    /** How many redirects were followed before this hop. */
    readonly redirects = 0,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}
