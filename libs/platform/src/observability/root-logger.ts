import pino, { Logger } from 'pino';

export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/**
 * The process's one pino logger: JSON lines on stdout. Credentials never reach it: requests are
 * logged by path (no query string) and a short list of harmless headers, and the usual secret
 * fields are redacted wherever they appear.
 */
export function createRootLogger(level: string, name: string): Logger {
  // Asynchronous writes: lines logged while a write is in flight go out together in the next
  // one, and nothing waits for a threshold, so a quiet process still shows its latest line.
  // pino flushes what is pending on exit.
  const destination = pino.destination({ dest: 1, sync: false });
  return pino(
    {
      name,
      level,
      base: { service: 'incident-investigation-service', process: name },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'password',
          '*.password',
          'currentPassword',
          'newPassword',
          '*.token',
          'token',
          'secret',
          '*.secret',
          'authorization',
          '*.authorization',
          'cookie',
          '*.cookie',
          'webhookSecret',
          '*.webhookSecret',
          'credentials',
          '*.credentials',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
