import pino, { Logger } from 'pino';

export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

/**
 * The process's one pino logger: JSON lines on stdout. Credentials never reach it: requests are
 * logged by path (no query string) and a short list of harmless headers, and the usual secret
 * fields are redacted wherever they appear.
 */
export function createRootLogger(level: string, name: string): Logger {
  // Asynchronous, buffered writes: lines collect until 4 KiB are pending (one write for a few
  // dozen access lines under load instead of one each) and a quiet process's lines go out within
  // a second. pino flushes what is pending on exit.
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 1000 });
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
