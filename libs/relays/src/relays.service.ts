import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '@svc/audit';
import {
  AppConfig,
  AuditContext,
  byTimeThenId,
  CursorCodec,
  DEFAULT_PAGE_SIZE,
  InjectScopedRepository,
  keysetPage,
  newId,
  NotFoundError,
  Page,
  PageRequest,
  ScopedRepository,
  StatementBatcher,
  Timestamp,
} from '@svc/platform';
import { capabilityDefinition } from './protocol/capabilities';
import { CreateBootstrapTokenDto, DEFAULT_BOOTSTRAP_LIFETIME_SECONDS } from './dto/relay.dto';
import {
  CreatedBootstrapTokenView,
  RelayFailurePage,
  RelayFailureView,
  RelayIntegrationView,
  RelayState,
  RelaySummaryView,
  RelayView,
  SessionConflictView,
} from './dto/relay.view';
import { RelayBootstrapToken } from './relay-bootstrap-token.entity';
import { RelayJob } from './relay-job.entity';
import { hashRelaySecret, mintBootstrapToken, mintRelayCredential, RELAY_CREDENTIAL_FORMAT, BOOTSTRAP_TOKEN_FORMAT } from './relay-secrets';
import { Relay } from './relay.entity';
import { RelaySessionConflict } from './relay-session-conflict.entity';
import { AdvertisedCapability, CredentialMatch, JobRecord, RelaysRepository } from './relays.repository';
import type { JobResultMessage } from './protocol/relay-protocol';
import { QueuedJob, RelayAnswer, RelayTransport } from './relay-transport';

const NEWEST_FIRST = byTimeThenId<Relay>('r', 'created_at', (r) => r.createdAt, 'DESC');
const CONFLICTS_NEWEST_FIRST = byTimeThenId<RelaySessionConflict>('c', 'occurred_at', (c) => c.occurredAt, 'DESC');
const FAILURES_NEWEST_FIRST = byTimeThenId<RelayJob>('j', 'created_at', (j) => j.createdAt, 'DESC');
const FAILED: RelayJob['status'][] = ['failed', 'timed_out'];
/** Answers handed over by one Redis round trip. */
const ANSWERS_PER_ROUND_TRIP = 500;
/** The most answer bytes one round trip carries (an answer larger than that goes alone). */
const ANSWER_BYTES_PER_ROUND_TRIP = 8 * 1024 * 1024;
/** Job records written by one statement. */
const RECORDS_PER_STATEMENT = 500;
/**
 * How long an ended job's record waits for others before it is written. Nobody waits on it (the
 * answer has gone to its read), and one statement for the jobs of this window costs PostgreSQL a
 * fraction of one each.
 */
const RECORD_WINDOW_MS = 25;

/** A job's end as the API process holding its relay's session saw it. */
interface SessionOutcome {
  job: QueuedJob;
  answer: RelayAnswer;
}

/** A job's record from the job and how it ended. */
export function jobRecord(job: QueuedJob, answer: Pick<RelayAnswer, 'status' | 'resultStatus' | 'truncated' | 'error'>): JobRecord {
  const { replyTo: _replyTo, deadline: _deadline, ...description } = job;
  return { ...description, status: answer.status, resultStatus: answer.resultStatus, truncated: answer.truncated, error: answer.error };
}

/** A session a relay was granted, or why not. */
export type SessionGrant = { granted: true; sessionId: string } | { granted: false };

/** What an Organization's relay did, for the audit log: the relay acts, through no person. */
function relayContext(name: string, relayId: string | null, address: string | null): AuditContext {
  return { actorKind: 'system', actorId: relayId, actorName: `relay ${name}`, sourceAddress: address, requestId: null };
}

/**
 * Relays (decisions §11): bootstrap tokens, registrations, the one session per registration and
 * its conflicts, what each relay advertises, and its failed jobs.
 */
@Injectable()
export class RelaysService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('RelaysService');
  /** A session not heard from for this long is over (three heartbeats). */
  readonly leaseSeconds: number;
  readonly heartbeatSeconds: number;
  /** Answers on their way to their reads, handed over together. */
  private readonly answers: StatementBatcher<SessionOutcome, void>;
  /** Ended jobs' records on their way to the database, written together. */
  private readonly records: StatementBatcher<JobRecord, void>;

  constructor(
    @InjectScopedRepository(Relay) private readonly relays: ScopedRepository<Relay>,
    @InjectScopedRepository(RelayBootstrapToken) private readonly tokens: ScopedRepository<RelayBootstrapToken>,
    @InjectScopedRepository(RelaySessionConflict) private readonly conflicts: ScopedRepository<RelaySessionConflict>,
    @InjectScopedRepository(RelayJob) private readonly jobs: ScopedRepository<RelayJob>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: RelaysRepository,
    private readonly cursors: CursorCodec,
    private readonly audit: AuditService,
    private readonly transport: RelayTransport,
    config: AppConfig,
  ) {
    this.heartbeatSeconds = config.SVC_RELAY_HEARTBEAT_SECONDS;
    this.leaseSeconds = 3 * config.SVC_RELAY_HEARTBEAT_SECONDS;
    this.answers = new StatementBatcher<SessionOutcome, void>(
      async (outcomes) => {
        await this.transport.answer(outcomes.map(({ job, answer }) => ({ replyTo: job.replyTo, answer })));
        return outcomes.map(() => undefined);
      },
      { maxItems: ANSWERS_PER_ROUND_TRIP, maxWeight: ANSWER_BYTES_PER_ROUND_TRIP, weight: (o) => o.answer.body?.length ?? 0, concurrency: 2 },
    );
    this.records = new StatementBatcher((records) => this.write(records), { maxItems: RECORDS_PER_STATEMENT, delayMs: RECORD_WINDOW_MS });
  }

  /** Writes the records still waiting for their window before the database connection closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.records.flush();
  }

  async mintBootstrapToken(organizationId: string, input: CreateBootstrapTokenDto, context: AuditContext): Promise<CreatedBootstrapTokenView> {
    const token = mintBootstrapToken();
    const id = newId();
    const expiresAt = Timestamp.now().plusSeconds(input.expiresInSeconds ?? DEFAULT_BOOTSTRAP_LIFETIME_SECONDS);
    return this.dataSource.transaction(async (manager) => {
      await this.tokens.withManager(manager).insert(organizationId, {
        id,
        name: input.name,
        tokenHash: hashRelaySecret(token),
        createdBy: context.actorId!,
        expiresAt,
        usedAt: null,
      });
      await this.audit.record(manager, organizationId, context, {
        action: 'relay.bootstrap_token.create',
        targetKind: 'relay_bootstrap_token',
        targetId: id,
        detail: { name: input.name, expiresAt: expiresAt.toISOString() },
      });
      return { id, name: input.name, token, expiresAt: expiresAt.toISOString() };
    });
  }

  async list(organizationId: string, page: PageRequest): Promise<Page<RelayView>> {
    const found = await keysetPage(this.relays.query(organizationId, 'r'), this.cursors, { scope: organizationId, collection: 'relays' }, NEWEST_FIRST, page);
    return { items: await this.views(this.dataSource.manager, organizationId, found.items), next: found.next };
  }

  async summary(organizationId: string): Promise<RelaySummaryView> {
    return this.repository.summary(organizationId, this.leaseSeconds);
  }

  async get(organizationId: string, relayId: string): Promise<RelayView> {
    const relay = await this.require(this.dataSource.manager, organizationId, relayId);
    return (await this.views(this.dataSource.manager, organizationId, [relay]))[0];
  }

  /** 404 unless the Organization has this relay (an integration bound to it names it). */
  async requireExists(organizationId: string, relayId: string): Promise<void> {
    await this.require(this.dataSource.manager, organizationId, relayId);
  }

  async integrations(organizationId: string, relayId: string, page: PageRequest): Promise<Page<RelayIntegrationView>> {
    await this.require(this.dataSource.manager, organizationId, relayId);
    const binding = { scope: organizationId, collection: `relay:${relayId}/integrations`, ordering: 'integration_id:ASC' };
    const after = page.cursor !== undefined ? String(this.cursors.decode(binding, page.cursor)[0]) : null;
    const limit = page.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await this.repository.integrationsPage(organizationId, relayId, after, limit + 1);
    const items = rows.slice(0, limit);
    const next = rows.length > limit ? this.cursors.encode(binding, [items[items.length - 1].integrationId]) : null;
    return { items, next };
  }

  async sessionConflicts(organizationId: string, relayId: string, page: PageRequest): Promise<Page<SessionConflictView>> {
    await this.require(this.dataSource.manager, organizationId, relayId);
    const found = await keysetPage(
      this.conflicts.query(organizationId, 'c').andWhere('c.relay_id = :relayId', { relayId }),
      this.cursors,
      { scope: organizationId, collection: `relay:${relayId}/session-conflicts` },
      CONFLICTS_NEWEST_FIRST,
      page,
    );
    return {
      items: found.items.map((c) => ({
        id: c.id,
        occurredAt: c.occurredAt.toISOString(),
        lastAttemptAt: c.lastAttemptAt.toISOString(),
        attempts: c.attempts,
        address: c.address,
        clearedAt: c.clearedAt?.toISOString() ?? null,
      })),
      next: found.next,
    };
  }

  /**
   * Clears the registration's open session conflicts and ends its current session, wherever it
   * is held, so that the next connection wins. Clearing with no open conflict ends the session too.
   */
  async clearConflict(organizationId: string, relayId: string, context: AuditContext): Promise<RelayView> {
    return this.dataSource.transaction(async (manager) => {
      const relay = await this.require(manager, organizationId, relayId, true);
      const cleared = await this.repository.clearConflicts(organizationId, relayId, context.actorId, manager);
      await this.repository.endSession(organizationId, relayId, manager);
      await this.repository.notifySessionChanged(organizationId, relayId, manager);
      await this.audit.record(manager, organizationId, context, {
        action: 'relay.clear_conflict',
        targetKind: 'relay',
        targetId: relayId,
        detail: { name: relay.name, clearedConflicts: cleared, endedSession: relay.sessionId !== null },
      });
      return (await this.views(manager, organizationId, [(await this.require(manager, organizationId, relayId))!]))[0];
    });
  }

  async failures(organizationId: string, relayId: string, page: PageRequest): Promise<RelayFailurePage> {
    await this.require(this.dataSource.manager, organizationId, relayId);
    const failed = () =>
      this.jobs.query(organizationId, 'j').andWhere('j.relay_id = :relayId', { relayId }).andWhere('j.status IN (:...failed)', { failed: FAILED });
    const [found, total] = await Promise.all([
      keysetPage(failed(), this.cursors, { scope: organizationId, collection: `relay:${relayId}/failures` }, FAILURES_NEWEST_FIRST, page),
      failed().getCount(),
    ]);
    return {
      next: found.next,
      total,
      items: found.items.map((j): RelayFailureView => ({
        jobId: j.id,
        capabilityId: j.capabilityId,
        capabilityVersion: j.capabilityVersion,
        integrationId: j.integrationId,
        outcome: j.status as 'failed' | 'timed_out',
        at: (j.finishedAt ?? j.createdAt).toISOString(),
        error: j.error,
      })),
    };
  }

  // The relay protocol's side (the gateway), never reached from HTTP.

  /**
   * Registers a relay with a bootstrap token: the token is used up, the relay record created, and
   * its credential returned this once. Unknown, used and expired tokens are refused alike (null).
   */
  async register(
    token: string,
    version: string,
    address: string | null,
  ): Promise<{ relayId: string; organizationId: string; name: string; credential: string } | null> {
    if (!BOOTSTRAP_TOKEN_FORMAT.test(token)) return null;
    return this.dataSource.transaction(async (manager) => {
      const used = await this.repository.consumeBootstrapTokenAcrossOrganizations(hashRelaySecret(token), manager);
      if (!used) return null;
      const credential = mintRelayCredential();
      const relayId = newId();
      await this.relays.withManager(manager).insert(used.organizationId, {
        id: relayId,
        name: used.name,
        credentialHash: hashRelaySecret(credential),
        bootstrapTokenId: used.id,
        version: version || null,
        sessionId: null,
        sessionInstance: null,
        sessionStartedAt: null,
        lastSeenAt: null,
      });
      await this.audit.record(manager, used.organizationId, relayContext(used.name, relayId, address), {
        action: 'relay.register',
        targetKind: 'relay',
        targetId: relayId,
        detail: { name: used.name, bootstrapTokenId: used.id, version },
      });
      return { relayId, organizationId: used.organizationId, name: used.name, credential };
    });
  }

  /** The relay a registration credential belongs to; null for anything else. */
  async authenticate(credential: string): Promise<CredentialMatch | null> {
    if (!RELAY_CREDENTIAL_FORMAT.test(credential)) return null;
    return (await this.repository.findByCredentialAcrossOrganizations(hashRelaySecret(credential))) ?? null;
  }

  /**
   * Opens the registration's one session for this relay process, or refuses it and records the
   * conflict (an open conflict counts further refusals; its opening is audited).
   */
  async openSession(relay: CredentialMatch, instance: string, version: string | null, address: string | null): Promise<SessionGrant> {
    const sessionId = newId();
    if (await this.repository.claimSession(relay.organizationId, relay.id, sessionId, instance, this.leaseSeconds, version)) {
      return { granted: true, sessionId };
    }
    await this.dataSource.transaction(async (manager) => {
      const { opened } = await this.repository.recordConflict(relay.organizationId, relay.id, newId(), address, manager);
      if (opened) {
        await this.audit.record(manager, relay.organizationId, relayContext(relay.name, relay.id, address), {
          action: 'relay.session_conflict',
          targetKind: 'relay',
          targetId: relay.id,
          outcome: 'denied',
          detail: { name: relay.name },
        });
      }
    });
    return { granted: false };
  }

  /** Records what the session advertised: capabilities this release knows, others are dropped. */
  async advertise(organizationId: string, relayId: string, capabilities: AdvertisedCapability[]): Promise<AdvertisedCapability[]> {
    const known = capabilities.filter(
      (c) =>
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(c.integrationId) && capabilityDefinition(c.capabilityId, c.capabilityVersion),
    );
    await this.dataSource.transaction((manager) => this.repository.replaceCapabilities(organizationId, relayId, known, manager));
    return known;
  }

  touchSession(organizationId: string, relayId: string, sessionId: string): Promise<boolean> {
    return this.repository.touchSession(organizationId, relayId, sessionId);
  }

  releaseSession(organizationId: string, relayId: string, sessionId: string): Promise<boolean> {
    return this.repository.releaseSession(organizationId, relayId, sessionId);
  }

  /** Takes up to `limit` of the relay's queued jobs, oldest first, to send them over its session. */
  takeJobs(organizationId: string, relayId: string, limit: number): Promise<QueuedJob[]> {
    return this.transport.take(organizationId, relayId, limit);
  }

  /**
   * Hands what the relay answered for a job to the read waiting for it, and records the job's
   * outcome. Answers arriving together (from one relay or many) are handed over in one round
   * trip; the records of the jobs ended within RECORD_WINDOW_MS are written by one statement
   * (the first outcome recorded for a job stands: a read that gave up first keeps its own).
   * Resolves once the answer is handed over.
   */
  async recordResult(job: QueuedJob, result: JobResultMessage): Promise<void> {
    const answered = result.ok && result.status >= 200 && result.status <= 299;
    await this.end(job, {
      organizationId: job.organizationId,
      jobId: job.id,
      status: answered ? 'succeeded' : 'failed',
      error: answered ? null : result.ok ? `The system answered HTTP ${result.status}` : (result.error || 'failed').slice(0, 1024),
      resultStatus: result.ok ? result.status : null,
      body: result.ok ? Buffer.from(result.body ?? []) : null,
      truncated: result.ok ? Boolean(result.truncated) : null,
    });
  }

  /** Fails jobs that were sent over a session that ended before the relay answered; resolves once they are recorded too. */
  async failJobs(jobs: QueuedJob[], error: string): Promise<void> {
    await Promise.all(
      jobs.map((job) =>
        this.end(job, { organizationId: job.organizationId, jobId: job.id, status: 'failed', error, resultStatus: null, body: null, truncated: null }, true),
      ),
    );
  }

  /** Hands the answer over and records the outcome; with `recorded`, resolves once the record is written too. */
  private async end(job: QueuedJob, answer: RelayAnswer, recorded = false): Promise<void> {
    const record = this.records.add(jobRecord(job, answer));
    await this.answers.add({ job, answer });
    if (recorded) await record;
  }

  /**
   * Writes job records. When PostgreSQL cannot take them, they are logged as missing: their
   * answers have reached their reads already.
   */
  private async write(records: JobRecord[]): Promise<void[]> {
    try {
      await this.repository.recordOutcomes(records);
    } catch (error) {
      this.logger.warn(`${records.length} relay job records not written: ${(error as Error).message}`);
    }
    return records.map(() => undefined);
  }

  private async require(manager: EntityManager, organizationId: string, relayId: string, lock = false): Promise<Relay> {
    const query = this.relays.withManager(manager).query(organizationId, 'r').andWhere('r.id = :relayId', { relayId });
    if (lock) query.setLock('pessimistic_write');
    const found = await query.getOne();
    if (!found) throw new NotFoundError('Relay');
    return found;
  }

  private async views(manager: EntityManager, organizationId: string, relays: Relay[]): Promise<RelayView[]> {
    const ids = relays.map((r) => r.id);
    const [inConflict, capabilities, now] = await Promise.all([
      this.repository.withOpenConflicts(organizationId, ids, manager),
      this.repository.capabilitiesOf(organizationId, ids, manager),
      this.repository.now(manager),
    ]);
    const liveSince = now.plusSeconds(-this.leaseSeconds);
    return relays.map((r) => {
      const live = r.sessionId !== null && r.lastSeenAt !== null && !r.lastSeenAt.isBefore(liveSince);
      const state: RelayState = inConflict.has(r.id) ? 'conflict' : live ? 'connected' : 'offline';
      return {
        id: r.id,
        name: r.name,
        state,
        version: r.version,
        lastSeenAt: r.lastSeenAt?.toISOString() ?? null,
        capabilities: capabilities
          .filter((c) => c.relayId === r.id)
          .map((c) => ({ integrationId: c.integrationId, capabilityId: c.capabilityId, capabilityVersion: c.capabilityVersion })),
        createdAt: r.createdAt.toISOString(),
      };
    });
  }
}
