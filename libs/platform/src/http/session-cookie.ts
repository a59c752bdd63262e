/** `__Host-` prefix: the browser only accepts it Secure, on Path=/ and without Domain. */
export const SESSION_COOKIE = '__Host-svc_session';
