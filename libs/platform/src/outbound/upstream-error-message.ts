export const MAX_UPSTREAM_MESSAGE_LENGTH = 512;

const clip = (text: string) => {
  // Control characters (newlines included) could forge lines in logs and reports.
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return clean.length > MAX_UPSTREAM_MESSAGE_LENGTH ? `${clean.slice(0, MAX_UPSTREAM_MESSAGE_LENGTH - 1)}…` : clean;
};

/**
 * The message of a recognised API error in an upstream's answer body, capped at 512 characters;
 * undefined for anything else. An upstream's body is otherwise never copied into errors, runs
 * or audit events (decisions §13): an internal server reached by mistake must not have its page
 * shown to whoever can read the run. Recognised:
 * - the Prometheus HTTP API's `{"status":"error","errorType":"...","error":"..."}`;
 * - Alertmanager API v2's error payloads: a JSON string (400 and 500 of its read endpoints) and
 *   the `{"code":602,"message":"..."}` of its request validation.
 */
export function upstreamErrorMessage(body: Buffer, status: number, complete = true): string | undefined {
  if (!complete || body.length === 0) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed === 'string') return (status === 400 || status === 500) && parsed.trim() ? clip(parsed) : undefined;
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const { status: state, errorType, error, code, message } = parsed as Record<string, unknown>;
  if (state === 'error' && typeof error === 'string') return clip(typeof errorType === 'string' && errorType ? `(${errorType}) ${error}` : error);
  if (typeof code === 'number' && typeof message === 'string' && Object.keys(parsed).length === 2) return clip(message);
  return undefined;
}
