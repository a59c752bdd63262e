import { APICallError, JSONParseError, RetryError } from 'ai';
import { ReasonerFailure } from './reasoner';

export interface FailureContext {
  provider: string;
  model: string;
  apiRoot: string;
  apiKey?: string;
  timeoutMs: number;
  /** The per-call timeout fired (the reasoner's own signal, not the session's). */
  timedOut: boolean;
}

const MAX_DETAIL = 300;
const MAX_MESSAGE = 1024;
const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}…`);
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * A provider failure as the message the investigation ends `failed` with: names the provider,
 * model and HTTP status, never the API key (scrubbed even if a provider echoed it back).
 */
export function providerFailure(error: unknown, context: FailureContext): ReasonerFailure {
  const who = `The language model provider (${context.provider}, model ${context.model})`;
  let attempts = 1;
  let cause = error;
  if (RetryError.isInstance(error)) {
    attempts = error.errors.length;
    cause = error.lastError;
  }
  const after = attempts > 1 ? ` (after ${attempts} attempts)` : '';
  let message: string;
  if (context.timedOut) {
    message = `${who} did not answer within ${Math.round(context.timeoutMs / 100) / 10} s`;
  } else if (APICallError.isInstance(cause)) {
    const status = cause.statusCode;
    if (status === undefined) {
      message = `${who} could not be reached at ${context.apiRoot}${after}: ${oneLine(cause.cause instanceof Error ? `${cause.message} (${cause.cause.message})` : cause.message)}`;
    } else if (status >= 200 && status < 300) {
      message = JSONParseError.isInstance(cause.cause)
        ? `${who} answered HTTP ${status} with a body that is not valid JSON`
        : `${who} answered HTTP ${status} with JSON that is not a ${context.provider} response: ${oneLine(clip(String(cause.cause instanceof Error ? cause.cause.message : cause.message), MAX_DETAIL))}`;
    } else {
      message = `${who} answered HTTP ${status}${after}: ${oneLine(clip(cause.message, MAX_DETAIL))}`;
    }
  } else {
    const text = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    message = `${who} failed${after}: ${oneLine(clip(text, MAX_DETAIL))}`;
  }
  if (context.apiKey && context.apiKey.length >= 4) message = message.split(context.apiKey).join('[redacted]');
  return new ReasonerFailure(clip(message, MAX_MESSAGE));
}
