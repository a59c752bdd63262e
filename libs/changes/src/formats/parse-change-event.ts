import { Timestamp } from '@svc/platform';
import { parseArgoCdNotification } from './argocd';
import { isObject } from './fields';
import { parseFluxEvent } from './flux';
import { parseGenericChanges } from './generic';
import { parseGitHubEvent } from './github';
import { parseGitLabEvent } from './gitlab';
import { ChangeParseResult } from './normalized-change';
import { parsePagerDutyChange } from './pagerduty';

/**
 * Turns an inbound change-event webhook into normalized changes. Pure and never throws: a body
 * that cannot be read as its format gives `{ok: false, error}` with one sentence naming the field
 * path (for a 400); values over their limits, bad characters and unusable links are repaired
 * instead and noted in `parsed.repairs`, because senders do not retry a 4xx.
 *
 * The format is recognised, in this order, by:
 *  1. header `x-github-event` present → GitHub (github.ts);
 *  2. header `x-gitlab-event` present → GitLab (gitlab.ts);
 *  3. a body object with an `involvedObject` object and a `reportingController` → Flux
 *     notification-controller event (flux.ts);
 *  4. a body object with an `argocd` object → Argo CD notification template (argocd.ts);
 *  5. a body object with a `payload` object → PagerDuty Change Events v2 (pagerduty.ts);
 *  6. anything else → this service's generic format (generic.ts), which also reports a body
 *     that is not an object.
 *
 * @param headers the request headers, names in lower case.
 * @param body the JSON-parsed body: anything at all.
 * @param receivedAt the receipt time: `occurredAt` of a change whose sender gives no time.
 */
export function parseChangeEvent(headers: Record<string, string>, body: unknown, receivedAt: Timestamp): ChangeParseResult {
  try {
    const github = headers['x-github-event'];
    if (typeof github === 'string') return parseGitHubEvent(github, body, receivedAt);
    const gitlab = headers['x-gitlab-event'];
    if (typeof gitlab === 'string') return parseGitLabEvent(gitlab, body, receivedAt);
    if (isObject(body)) {
      if (isObject(body.involvedObject) && body.reportingController !== undefined) return parseFluxEvent(body, receivedAt);
      if (isObject(body.argocd)) return parseArgoCdNotification(body, receivedAt);
      if (isObject(body.payload)) return parsePagerDutyChange(body, receivedAt);
    }
    return parseGenericChanges(body, receivedAt);
  } catch {
    return { ok: false, error: 'body could not be read as a change event' };
  }
}
