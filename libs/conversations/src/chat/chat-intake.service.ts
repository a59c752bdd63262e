import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ChatEventKey, ChatSigningKeys, IntegrationsService } from '@svc/integrations';
import { AppConfig, DomainError, InvalidInputError, isNestedDeeperThan, MAX_JSON_DEPTH, Outbox, storableText, UnauthenticatedError } from '@svc/platform';
import { CHAT_EVENT_JOB, CONVERSATIONS_QUEUE } from '../conversations.service';
import { ChatRepository } from './chat.repository';
import { freshTimestamp, signatureMatches } from './chat-signature';

/** The message of a chat event the worker acts on. */
export interface ChatEventPayload {
  integrationId: string;
  eventId: string;
  /** `mention` opens or continues the thread's conversation; `reply` continues it. */
  kind: 'mention' | 'reply';
  channel: string;
  /** The message's own `ts`. */
  ts: string;
  /** The thread's `ts`: the message's thread, or the message itself when it starts one. */
  threadTs: string;
  user: string;
  text: string;
}

/** What the webhook answers. */
export interface ChatAck {
  status: 200;
  body: Record<string, unknown>;
}

/** Batches committing at once; events arriving meanwhile wait for the next batch. */
const CONCURRENT_BATCHES = 2;
/** Events taken in by one transaction at most. */
const MAX_BATCH = 64;

interface PendingEvent {
  key: ChatEventKey;
  payload: ChatEventPayload;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const ACK: ChatAck = { status: 200, body: {} };
const ID = /^[A-Za-z0-9_.:-]{1,128}$/;

function rejected(): UnauthenticatedError {
  return new UnauthenticatedError('credential_rejected', 'Unknown workspace or app, a stale or future timestamp, or a bad signature');
}

export class ChatAdmissionPressure extends DomainError {
  constructor() {
    super('rate_limited', 'Too many chat events in flight; retry shortly', { retryAfterSeconds: 1 });
  }
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * Takes in chat events (decisions §9): authenticates the v0 signature against the signing
 * secret of the chat integration the event names (its `team_id` and `api_app_id`), answers
 * `url_verification`, ignores what is not for the service (bots, the app's own replies, other
 * events, replies in threads without a conversation), and records each event id once with the
 * job that acts on it, in one transaction (shared by the events that arrive together): the
 * acknowledgement waits for nothing else.
 */
@Injectable()
export class ChatIntakeService {
  private inFlight = 0;
  private readonly waiting: PendingEvent[] = [];
  private batchesRunning = 0;
  private readonly maxInFlight: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly integrations: IntegrationsService,
    private readonly signingKeys: ChatSigningKeys,
    private readonly repository: ChatRepository,
    private readonly outbox: Outbox,
    config: AppConfig,
  ) {
    this.maxInFlight = config.SVC_CHAT_MAX_IN_FLIGHT;
  }

  /** Counts a whole request against SVC_CHAT_MAX_IN_FLIGHT; past it the provider is told to retry (429). */
  async inFlightSlot<T>(work: () => Promise<T>): Promise<T> {
    if (this.inFlight >= this.maxInFlight) throw new ChatAdmissionPressure();
    this.inFlight += 1;
    try {
      return await work();
    } finally {
      this.inFlight -= 1;
    }
  }

  /** Every credential failure is the same 401; a body that cannot be read as an event object is 400. */
  async receive(headers: { timestamp?: string; signature?: string }, raw: Buffer): Promise<ChatAck> {
    const { timestamp, signature } = headers;
    if (!freshTimestamp(timestamp) || !signature) throw rejected();
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(raw.toString('utf8'));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      body = parsed as Record<string, unknown>;
    } catch {
      throw new InvalidInputError('Malformed JSON body: a chat event is a JSON object');
    }
    if (isNestedDeeperThan(body, MAX_JSON_DEPTH)) throw new InvalidInputError(`Invalid input: JSON nested deeper than ${MAX_JSON_DEPTH} levels`);

    if (body.type === 'url_verification') {
      const keys = await this.integrations.chatSigningKeysAcrossOrganizations('any');
      if (!keys.some((key) => signatureMatches(key.signingSecret, timestamp, raw, signature))) throw rejected();
      const challenge = str(body.challenge);
      if (challenge === undefined || challenge.length > 1024)
        throw new InvalidInputError('Invalid input: challenge must be a string of at most 1024 characters');
      return { status: 200, body: { challenge } };
    }

    const teamId = str(body.team_id);
    const appId = str(body.api_app_id);
    if (!teamId || !appId) throw rejected();
    const key = await this.signingKeys.find({ teamId, appId }, (secret) => signatureMatches(secret, timestamp, raw, signature));
    if (!key) throw rejected();

    // An answer other than taking the event in is confirmed by a fresh read when the key came from the cache.
    const ignored = async (): Promise<ChatAck> => {
      if (!(await this.signingKeys.confirm(key))) throw rejected();
      return ACK;
    };
    if (body.type !== 'event_callback') return ignored();
    const eventId = str(body.event_id);
    const event = body.event as Record<string, unknown> | undefined;
    if (!eventId || !ID.test(eventId) || !event || typeof event !== 'object') {
      await ignored();
      throw new InvalidInputError('Invalid input: an event_callback carries event_id and event');
    }
    const message = this.messageOf(event);
    if (!message) return ignored();
    const thread = { integrationId: key.integrationId, channel: message.channel, threadTs: message.threadTs };
    if (message.kind === 'reply' && !(await this.repository.threadExists(key.organizationId, thread))) return ignored();
    await this.takeIn(key, { integrationId: key.integrationId, eventId, ...message });
    return ACK;
  }

  /**
   * Records the event and writes its job, committed before the acknowledgement. Events arriving
   * while earlier ones commit wait and are committed together, in one transaction: the commit,
   * not the request, is the unit of cost.
   */
  private takeIn(key: ChatEventKey, payload: ChatEventPayload): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ key, payload, resolve, reject });
      this.drain();
    });
  }

  private drain(): void {
    while (this.batchesRunning < CONCURRENT_BATCHES && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      this.batchesRunning += 1;
      void this.commit(batch).finally(() => {
        this.batchesRunning -= 1;
        this.drain();
      });
    }
  }

  /** One transaction for the batch; when it fails, each event again on its own, so one bad event fails alone. */
  private async commit(batch: PendingEvent[]): Promise<void> {
    const settle = (entry: PendingEvent, stale: Set<PendingEvent>) => (stale.has(entry) ? entry.reject(rejected()) : entry.resolve());
    try {
      const stale = await this.write(batch);
      for (const entry of batch) settle(entry, stale);
    } catch (error) {
      if (batch.length === 1) return batch[0].reject(error);
      for (const entry of batch) {
        try {
          settle(entry, await this.write([entry]));
        } catch (own) {
          entry.reject(own);
        }
      }
    }
  }

  /**
   * Records the batch's events whose signing secret is still current, confirmed under a row lock
   * that every change to the integration conflicts with (ChatSigningKeys.stillCurrent); the others
   * are refused (401) and record nothing.
   */
  private async write(batch: PendingEvent[]): Promise<Set<PendingEvent>> {
    const stale = await this.dataSource.transaction(async (manager) => {
      const current = await this.signingKeys.stillCurrent(
        manager,
        batch.map((e) => e.key),
      );
      const admitted = batch.filter((_, i) => current[i]);
      const takenIn =
        admitted.length > 0
          ? await this.repository.recordEventsAcrossOrganizations(
              admitted.map((e) => ({ organizationId: e.key.organizationId, integrationId: e.payload.integrationId, eventId: e.payload.eventId })),
              manager,
            )
          : [];
      const key = (e: { organizationId: string; integrationId: string; eventId: string }) => `${e.organizationId} ${e.integrationId} ${e.eventId}`;
      const fresh = new Set(takenIn.map(key));
      // The same event twice in one batch: the first entry writes its job.
      const jobs = admitted.filter((entry) => fresh.delete(key({ organizationId: entry.key.organizationId, ...entry.payload })));
      await this.outbox.addAll(
        manager,
        jobs.map((entry) => ({
          organizationId: entry.key.organizationId,
          queue: CONVERSATIONS_QUEUE,
          name: CHAT_EVENT_JOB,
          payload: { ...entry.payload },
        })),
      );
      return new Set(batch.filter((_, i) => !current[i]));
    });
    return stale;
  }

  /**
   * The person's message an event carries, or undefined when it is not for the service: from a
   * bot (the app's own replies included: they carry `bot_id`), an edit or other subtype, without
   * a user or text, or a channel message outside any thread.
   */
  private messageOf(event: Record<string, unknown>): Omit<ChatEventPayload, 'integrationId' | 'eventId'> | undefined {
    if (event.bot_id !== undefined || event.bot_profile !== undefined || event.subtype !== undefined) return undefined;
    const user = str(event.user);
    // Repaired rather than refused (decisions §4 for webhooks): NUL and lone surrogates become U+FFFD.
    const raw = str(event.text);
    const text = raw === undefined ? undefined : storableText(raw);
    const channel = str(event.channel);
    const ts = str(event.ts);
    const threadTs = str(event.thread_ts);
    if (!user || !text?.trim() || !channel || !ts || !ID.test(user) || !ID.test(channel) || !ID.test(ts) || (threadTs !== undefined && !ID.test(threadTs)))
      return undefined;
    if (event.type === 'app_mention') return { kind: 'mention', channel, ts, threadTs: threadTs ?? ts, user, text };
    if (event.type === 'message' && threadTs && threadTs !== ts) return { kind: 'reply', channel, ts, threadTs, user, text };
    return undefined;
  }
}
