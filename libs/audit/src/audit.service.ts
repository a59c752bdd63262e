import { Injectable } from '@nestjs/common';
import { Brackets, EntityManager, SelectQueryBuilder } from 'typeorm';
import { AuditContext, byTimeThenId, capText, CursorCodec, InjectScopedRepository, keysetPage, newId, Page, ScopedRepository, Timestamp } from '@svc/platform';
import { AuditEvent, AuditOutcome } from './audit-event.entity';
import { AuditFilterDto } from './dto/audit-query.dto';

export interface AuditRecord {
  action: string;
  targetKind?: string;
  targetId?: string;
  outcome?: AuditOutcome;
  detail?: Record<string, unknown>;
}

/** Names of fields that hold secrets (not every name that mentions a token: `apiTokensAllowed` is a setting). */
const SECRET_KEY =
  /^(?:password|passwordHash|currentPassword|newPassword|secret|clientSecret|webhookSecret|signingSecret|token|accessToken|refreshToken|idToken|apiKey|bootstrapCredential|credential|credentials|cookie|authorization)$/i;

/**
 * The most code points of any text an audit event records (a detail value or key, the actor's
 * name): longer text is cut to this length, ending with the truncation marker (`…[truncated]`),
 * so what a caller or an upstream sends cannot make an append-only record grow without bound.
 */
export const AUDIT_TEXT_MAX_LENGTH = 1024;

/**
 * An audit detail as it is stored: anything that looks like a secret dropped, however deep (an
 * audit detail never holds one), and every string cut to AUDIT_TEXT_MAX_LENGTH.
 */
export function auditableDetail(value: unknown, depth = 0): unknown {
  if (depth > 6) return '[truncated]';
  if (typeof value === 'string') return capText(value, AUDIT_TEXT_MAX_LENGTH);
  if (Array.isArray(value)) return value.map((v) => auditableDetail(v, depth + 1));
  if (value && typeof value === 'object' && !(value instanceof Timestamp)) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !SECRET_KEY.test(k))
        .map(([k, v]) => [capText(k, AUDIT_TEXT_MAX_LENGTH), auditableDetail(v, depth + 1)]),
    );
  }
  return value;
}

function capped(text: string | null): string | null {
  return text === null ? null : capText(text, AUDIT_TEXT_MAX_LENGTH);
}

const NEWEST_FIRST = byTimeThenId<AuditEvent>('e', 'occurred_at', (e) => e.occurredAt, 'DESC');

@Injectable()
export class AuditService {
  constructor(
    @InjectScopedRepository(AuditEvent) private readonly events: ScopedRepository<AuditEvent>,
    private readonly cursors: CursorCodec,
  ) {}

  /** Records an event in the caller's transaction, so it exists exactly when the change does. */
  async record(manager: EntityManager, organizationId: string, context: AuditContext, record: AuditRecord): Promise<void> {
    await this.recordInEach(manager, [organizationId], context, record);
  }

  /** The same event in several Organizations (a person's sign-in concerns each of theirs). */
  async recordInEach(manager: EntityManager, organizationIds: string[], context: AuditContext, record: AuditRecord): Promise<void> {
    const repository = this.events.withManager(manager);
    for (const organizationId of organizationIds) {
      await repository.insert(organizationId, {
        id: newId(),
        actorKind: context.actorKind,
        actorId: context.actorId,
        actorName: capped(context.actorName),
        action: record.action,
        targetKind: record.targetKind ?? null,
        targetId: capped(record.targetId ?? null),
        outcome: record.outcome ?? 'allowed',
        sourceAddress: context.sourceAddress,
        requestId: context.requestId,
        detail: auditableDetail(record.detail ?? {}) as Record<string, unknown>,
      });
    }
  }

  /** Newest first, keyset-paginated; the cursor is bound to the Organization and the filters. */
  list(organizationId: string, filters: AuditFilterDto, page: { limit?: number; cursor?: string }): Promise<Page<AuditEvent>> {
    const query = this.filtered(organizationId, filters);
    return keysetPage(query, this.cursors, { scope: organizationId, collection: `audit-events?${filterKey(filters)}` }, NEWEST_FIRST, page);
  }

  /**
   * Every matching event, oldest first, in batches: memory stays flat however many there are.
   * The consumer's promise is awaited before the next batch is read (backpressure).
   */
  async forEachBatch(organizationId: string, filters: AuditFilterDto, consume: (batch: AuditEvent[]) => Promise<void>, batchSize = 1000): Promise<void> {
    let after: { at: Timestamp; id: string } | undefined;
    for (;;) {
      const query = this.filtered(organizationId, filters);
      if (after) query.andWhere('(e.occurred_at, e.id) > (:at, :id)', { at: after.at, id: after.id });
      const batch = await query.orderBy('e.occurred_at', 'ASC').addOrderBy('e.id', 'ASC').limit(batchSize).getMany();
      if (batch.length === 0) return;
      await consume(batch);
      if (batch.length < batchSize) return;
      const last = batch[batch.length - 1];
      after = { at: last.occurredAt, id: last.id };
    }
  }

  private filtered(organizationId: string, filters: AuditFilterDto): SelectQueryBuilder<AuditEvent> {
    const query = this.events.query(organizationId, 'e');
    const where = new Brackets((qb) => {
      qb.where('TRUE');
      if (filters.from) qb.andWhere('e.occurred_at >= :from', { from: Timestamp.parse(filters.from) });
      if (filters.until) qb.andWhere('e.occurred_at < :until', { until: Timestamp.parse(filters.until) });
      if (filters.actorId) qb.andWhere('e.actor_id = :actorId', { actorId: filters.actorId });
      if (filters.action) qb.andWhere('e.action = :action', { action: filters.action });
      if (filters.targetKind) qb.andWhere('e.target_kind = :targetKind', { targetKind: filters.targetKind });
      if (filters.targetId) qb.andWhere('e.target_id = :targetId', { targetId: filters.targetId });
      if (filters.outcome) qb.andWhere('e.outcome = :outcome', { outcome: filters.outcome });
    });
    return query.andWhere(where);
  }
}

function filterKey(filters: AuditFilterDto): string {
  const keys = ['from', 'until', 'actorId', 'action', 'targetKind', 'targetId', 'outcome'] as const;
  return keys.map((k) => `${k}=${filters[k] ?? ''}`).join('&');
}
