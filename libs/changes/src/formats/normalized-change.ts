import type { Timestamp } from '@svc/platform';

/**
 * What every inbound change-event format (generic, PagerDuty Change Events v2, GitHub, GitLab,
 * Argo CD, Flux) is turned into. The parsers are pure: no framework, no I/O, never throw
 * (see parse-change-event.ts).
 */

/** What kind of change: a new version running, a setting, a flag, a schema, the platform under it, a release cut, code merged. */
export const CHANGE_KINDS = ['deploy', 'config', 'feature_flag', 'migration', 'infrastructure', 'release', 'code', 'other'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/**
 * Which sender's format a change came in, or where the service saw it itself: `kubernetes`, a
 * rollout read from kube-state-metrics (a container's new image); `prometheus`, a new version read
 * from a program's own `*_build_info` series.
 */
export const CHANGE_SOURCES = ['generic', 'pagerduty', 'github', 'gitlab', 'argocd', 'flux', 'kubernetes', 'prometheus'] as const;
export type ChangeSource = (typeof CHANGE_SOURCES)[number];

/** The sources of changes the service observed in metrics rather than received. */
export const OBSERVED_CHANGE_SOURCES = ['kubernetes', 'prometheus'] as const;
export type ObservedChangeSource = (typeof OBSERVED_CHANGE_SOURCES)[number];

export interface ChangeLink {
  /** http or https only. */
  href: string;
  text: string | null;
}

export interface NormalizedChange {
  /**
   * The sender's own id of this change, prefixed by the format (`github:deployment_status:123`), so
   * that a repeated delivery of the same change is recognised: the key of deduplication within
   * the integration. Derived from the content (a hash) when the sender gives none.
   */
  externalId: string;
  /** When the change happened (the sender's time), else when it was received. */
  occurredAt: Timestamp;
  /** The service or component changed (a repository, an application, a release's name). */
  service: string | null;
  environment: string | null;
  kind: ChangeKind;
  /** One line a person reads on the timeline. */
  summary: string;
  /** Who made it (a login, a user name). */
  author: string | null;
  versionBefore: string | null;
  versionAfter: string | null;
  links: ChangeLink[];
  /** Further fields of the sender, bounded by CHANGE_LIMITS.maxDetailsBytes (serialized). */
  details: Record<string, unknown>;
}

export interface ParsedChanges {
  source: Exclude<ChangeSource, ObservedChangeSource>;
  /** Zero or more (zero: the event is not a change, and `ignored` says why). */
  changes: NormalizedChange[];
  /** Why an authentic event holds no change (a GitHub ping, a push to another branch, a deploy still running). */
  ignored?: string;
  /** What was repaired to keep the changes instead of refusing them (values cut, bad characters replaced); one sentence each. */
  repairs?: string[];
}

/** `error` is one sentence naming the field path, safe to return in a 400 body (at most 1024 characters). */
export type ChangeParseResult = { ok: true; parsed: ParsedChanges } | { ok: false; error: string };

/** Lengths are counted in Unicode code points. Over a limit a value is cut with the truncation marker (a repair), never refused. */
export const CHANGE_LIMITS = {
  /** Changes in one generic delivery (`{changes: [...]}`). */
  maxChanges: 100,
  maxSummaryLength: 1024,
  maxNameLength: 256,
  maxVersionLength: 256,
  maxExternalIdLength: 512,
  maxLinks: 20,
  maxHrefLength: 2048,
  maxLinkTextLength: 256,
  maxDetailsBytes: 16 * 1024,
} as const;
