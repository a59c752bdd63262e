import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { AuditService } from '@svc/audit';
import { IncidentsService } from '@svc/incidents';
import { InvestigationsService } from '@svc/investigations';
import {
  AppConfig,
  AuditContext,
  ConflictError,
  InjectScopedRepository,
  InvalidInputError,
  newId,
  NotFoundError,
  Outbox,
  PreconditionFailedError,
  ScopedRepository,
  Timestamp,
} from '@svc/platform';
import { draftFromFacts, inDocumentOrder, keepCorrections, PostmortemFacts, PostmortemNotes } from './postmortem-draft';
import { Postmortem, PostmortemRevision } from './postmortem.entity';
import { postmortemReport } from './postmortem-report';
import { DocumentField, DOCUMENT_FIELDS, NARRATIVE_FIELDS, NarrativeField, PostmortemDocument, RevisionKind } from './postmortem.types';
import { PostmortemsRepository, RevisionSummary } from './postmortems.repository';

export const POSTMORTEMS_QUEUE = 'postmortems';
export const WRITE_NARRATIVE_JOB = 'postmortem.narrative';

/** Alert phases a draft lists before it says how many more there are. */
const ALERT_EVENTS_LISTED = 900;

/** The job's data: the postmortem and the revision whose facts the narrative is written from. */
export interface NarrativeJob {
  postmortemId: string;
  revision: number;
}

/**
 * A correction as the controller hands it over: any subset of the document's fields (entries a
 * person writes may leave out their citations; the service fills them in).
 */
export type PostmortemCorrection = Partial<PostmortemDocument>;

/** The facts a narrative may cite: the postmortem's document and the run ordinals of each investigation of its incident. */
export interface NarrativeFacts {
  postmortem: Postmortem;
  runOrdinals: Map<string, number[]>;
}

const SYSTEM: AuditContext = { actorKind: 'system', actorId: null, actorName: 'postmortem narrative', sourceAddress: null, requestId: null };

function authorOf(context: AuditContext): string {
  return context.actorKind === 'api_token' ? `token:${context.actorId}` : (context.actorId ?? context.actorKind);
}

/**
 * Whether `If-Match` (absent, `*`, or a list of entity tags such as `"3"`) allows a change of the
 * postmortem at `revision`: the tag is the revision (decisions §10).
 */
export function ifMatchAllows(ifMatch: string | undefined, revision: number): boolean {
  if (ifMatch === undefined) return true;
  const tags = ifMatch.split(',').map((t) => t.trim());
  return tags.some((t) => t === '*' || t === `"${revision}"` || t === `W/"${revision}"`);
}

/**
 * Postmortems of resolved incidents: the first draft and its regenerations from recorded facts,
 * corrections by people (kept across regenerations), review, and the narrative a language model
 * writes from the facts (applied by the worker).
 */
@Injectable()
export class PostmortemsService {
  private readonly narrativeConfigured: boolean;

  constructor(
    @InjectScopedRepository(Postmortem) private readonly postmortems: ScopedRepository<Postmortem>,
    @InjectScopedRepository(PostmortemRevision) private readonly revisionRows: ScopedRepository<PostmortemRevision>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: PostmortemsRepository,
    private readonly incidents: IncidentsService,
    private readonly investigations: InvestigationsService,
    private readonly outbox: Outbox,
    private readonly audit: AuditService,
    config: AppConfig,
  ) {
    this.narrativeConfigured = Boolean(config.SVC_LLM_PROVIDER && config.SVC_LLM_MODEL);
  }

  /** The incident's postmortem: 404 when the incident is unknown or has none. */
  async get(organizationId: string, incidentId: string): Promise<Postmortem> {
    await this.incidents.get(organizationId, incidentId);
    const found = await this.postmortems.findOne(organizationId, { incidentId });
    if (!found) throw new NotFoundError('Postmortem');
    return found;
  }

  async getById(organizationId: string, id: string): Promise<Postmortem | null> {
    return this.postmortems.findById(organizationId, id);
  }

  async revisions(organizationId: string, incidentId: string): Promise<RevisionSummary[]> {
    const postmortem = await this.get(organizationId, incidentId);
    return this.repository.revisions(organizationId, postmortem.id);
  }

  /** One kept revision of the incident's postmortem, as it was; 404 when there is no such revision. */
  async revision(organizationId: string, incidentId: string, revision: number): Promise<PostmortemRevision> {
    if (!Number.isSafeInteger(revision) || revision < 1 || revision > 2_147_483_647)
      throw new InvalidInputError('Invalid input: revision must be an integer from 1');
    const postmortem = await this.get(organizationId, incidentId);
    const found = await this.revisionRows.findOne(organizationId, { postmortemId: postmortem.id, revision });
    if (!found) throw new NotFoundError('Postmortem revision');
    return found;
  }

  /** The current postmortem as Markdown. */
  async report(organizationId: string, incidentId: string): Promise<string> {
    return postmortemReport(await this.get(organizationId, incidentId));
  }

  /** The first draft (201): the incident must be resolved and have no postmortem yet (409 otherwise). */
  async create(organizationId: string, incidentId: string, notes: PostmortemNotes, context: AuditContext): Promise<Postmortem> {
    const facts = await this.facts(organizationId, incidentId);
    this.requireResolved(facts);
    const noted = inDocumentOrder(Object.keys(notes).filter((k) => (notes as Record<string, unknown>)[k] !== undefined) as DocumentField[]);
    const document = keepCorrections(draftFromFacts(facts), notes, noted);
    const id = newId();
    try {
      await this.dataSource.transaction(async (manager) => {
        const now = Timestamp.now();
        await this.postmortems.withManager(manager).insert(organizationId, {
          id,
          incidentId,
          status: 'draft',
          revision: 1,
          document,
          correctedFields: noted,
          createdAt: now,
          updatedAt: now,
          reviewedAt: null,
          reviewedByUserId: null,
        });
        await this.keepRevision(manager, organizationId, id, 1, 'generated', document, noted, authorOf(context));
        await this.queueNarrative(manager, organizationId, id, 1);
        await this.audit.record(manager, organizationId, context, {
          action: 'postmortem.create',
          targetKind: 'postmortem',
          targetId: id,
          detail: { incidentId, revision: 1, correctedFields: noted },
        });
      });
    } catch (error) {
      if (error instanceof QueryFailedError && (error as QueryFailedError & { code?: string }).code === '23505')
        throw new ConflictError('The incident already has a postmortem: regenerate or correct it');
      throw error;
    }
    return (await this.postmortems.findById(organizationId, id))!;
  }

  /** A new facts-only draft (revision + 1) that keeps every field a person set. */
  async regenerate(organizationId: string, incidentId: string, ifMatch: string | undefined, context: AuditContext): Promise<Postmortem> {
    const facts = await this.facts(organizationId, incidentId);
    return this.change(organizationId, incidentId, async (current, manager) => {
      if (current.status === 'reviewed') throw new ConflictError('The postmortem is reviewed: correct it (which returns it to draft) before regenerating');
      if (!ifMatchAllows(ifMatch, current.revision))
        throw new PreconditionFailedError(`If-Match does not match: the postmortem is at revision ${current.revision}`);
      this.requireResolved(facts);
      const document = keepCorrections(draftFromFacts(facts), current.document, current.correctedFields);
      const revision = current.revision + 1;
      await this.store(manager, organizationId, current, { document, revision }, 'regenerated', authorOf(context));
      await this.queueNarrative(manager, organizationId, current.id, revision);
      await this.audit.record(manager, organizationId, context, {
        action: 'postmortem.regenerate',
        targetKind: 'postmortem',
        targetId: current.id,
        detail: { incidentId, revision, kept: current.correctedFields },
      });
    });
  }

  /** A person's corrections (revision + 1): the fields become human-set; a reviewed postmortem returns to draft. */
  async correct(
    organizationId: string,
    incidentId: string,
    correction: PostmortemCorrection,
    ifMatch: string | undefined,
    context: AuditContext,
  ): Promise<Postmortem> {
    const fields = inDocumentOrder(Object.keys(correction).filter((k) => (correction as Record<string, unknown>)[k] !== undefined) as DocumentField[]);
    const citations = await this.checkCitations(organizationId, incidentId, correction);
    return this.change(organizationId, incidentId, async (current, manager) => {
      if (!ifMatchAllows(ifMatch, current.revision))
        throw new PreconditionFailedError(`If-Match does not match: the postmortem is at revision ${current.revision}`);
      if (fields.length === 0) throw new InvalidInputError(`Invalid input: give at least one of ${DOCUMENT_FIELDS.join(', ')}`);
      const document = { ...current.document } as Record<DocumentField, unknown>;
      for (const field of fields) document[field] = citations[field] ?? correction[field];
      const revision = current.revision + 1;
      const correctedFields = inDocumentOrder([...current.correctedFields, ...fields]);
      await this.store(
        manager,
        organizationId,
        current,
        { document: document as unknown as PostmortemDocument, revision, correctedFields, status: 'draft', reviewedAt: null, reviewedByUserId: null },
        'corrected',
        authorOf(context),
      );
      await this.audit.record(manager, organizationId, context, {
        action: 'postmortem.correct',
        targetKind: 'postmortem',
        targetId: current.id,
        detail: { incidentId, revision, fields, reopened: current.status === 'reviewed' },
      });
    });
  }

  /** Marks the draft reviewed by the signed-in person; a reviewed one is 409. */
  async review(organizationId: string, incidentId: string, context: AuditContext): Promise<Postmortem> {
    return this.change(organizationId, incidentId, async (current, manager) => {
      if (current.status === 'reviewed') throw new ConflictError('The postmortem is already reviewed');
      const now = Timestamp.now();
      await this.postmortems
        .withManager(manager)
        .update(organizationId, { id: current.id }, { status: 'reviewed', reviewedAt: now, reviewedByUserId: context.actorId, updatedAt: now });
      await this.audit.record(manager, organizationId, context, {
        action: 'postmortem.review',
        targetKind: 'postmortem',
        targetId: current.id,
        detail: { incidentId, revision: current.revision },
      });
    });
  }

  /** What the narrative job may use: the postmortem at `revision` and the runs its citations may name; null when it moved on. */
  async narrativeFacts(organizationId: string, job: NarrativeJob): Promise<NarrativeFacts | null> {
    const postmortem = await this.postmortems.findById(organizationId, job.postmortemId);
    if (!postmortem || postmortem.revision !== job.revision || postmortem.status !== 'draft') return null;
    if (NARRATIVE_FIELDS.every((f) => postmortem.correctedFields.includes(f))) return null;
    return { postmortem, runOrdinals: await this.runOrdinals(organizationId, postmortem.incidentId) };
  }

  /**
   * Stores a checked narrative as the next revision, over the narrative fields no person set,
   * unless the postmortem moved on since `job.revision` (then nothing changes). Returns whether it was stored.
   */
  async applyNarrative(organizationId: string, job: NarrativeJob, narrative: Record<NarrativeField, string>): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const revision = await this.repository.lockById(organizationId, job.postmortemId, manager);
      if (revision !== job.revision) return false;
      const current = (await this.postmortems.withManager(manager).findById(organizationId, job.postmortemId))!;
      if (current.status !== 'draft') return false;
      const written = NARRATIVE_FIELDS.filter((f) => !current.correctedFields.includes(f));
      if (written.length === 0) return false;
      const document = { ...current.document };
      for (const field of written) document[field] = narrative[field];
      await this.store(manager, organizationId, current, { document, revision: revision + 1 }, 'narrative', 'system');
      await this.audit.record(manager, organizationId, SYSTEM, {
        action: 'postmortem.narrative',
        targetKind: 'postmortem',
        targetId: current.id,
        detail: { incidentId: current.incidentId, revision: revision + 1, fields: written },
      });
      return true;
    });
  }

  /** Locks the incident's postmortem (404 without one), runs `work` and returns the postmortem as it then is. */
  private async change(organizationId: string, incidentId: string, work: (current: Postmortem, manager: EntityManager) => Promise<void>): Promise<Postmortem> {
    await this.incidents.get(organizationId, incidentId);
    const id = await this.dataSource.transaction(async (manager) => {
      const locked = await this.repository.lockByIncident(organizationId, incidentId, manager);
      if (!locked) throw new NotFoundError('Postmortem');
      const current = (await this.postmortems.withManager(manager).findById(organizationId, locked))!;
      await work(current, manager);
      return locked;
    });
    return (await this.postmortems.findById(organizationId, id))!;
  }

  private async store(
    manager: EntityManager,
    organizationId: string,
    current: Postmortem,
    values: Partial<Pick<Postmortem, 'document' | 'correctedFields' | 'status' | 'reviewedAt' | 'reviewedByUserId'>> & {
      revision: number;
      document: PostmortemDocument;
    },
    kind: RevisionKind,
    author: string,
  ): Promise<void> {
    await this.postmortems.withManager(manager).update(organizationId, { id: current.id }, { ...values, updatedAt: Timestamp.now() });
    await this.keepRevision(
      manager,
      organizationId,
      current.id,
      values.revision,
      kind,
      values.document,
      values.correctedFields ?? current.correctedFields,
      author,
    );
  }

  private async keepRevision(
    manager: EntityManager,
    organizationId: string,
    postmortemId: string,
    revision: number,
    kind: RevisionKind,
    document: PostmortemDocument,
    correctedFields: DocumentField[],
    createdBy: string,
  ): Promise<void> {
    await this.revisionRows
      .withManager(manager)
      .insert(organizationId, { id: newId(), postmortemId, revision, kind, document, correctedFields, createdBy, createdAt: Timestamp.now() });
  }

  private async queueNarrative(manager: EntityManager, organizationId: string, postmortemId: string, revision: number): Promise<void> {
    if (!this.narrativeConfigured) return;
    const payload: NarrativeJob = { postmortemId, revision };
    await this.outbox.add(manager, { organizationId, queue: POSTMORTEMS_QUEUE, name: WRITE_NARRATIVE_JOB, payload: { ...payload } });
  }

  private async facts(organizationId: string, incidentId: string): Promise<PostmortemFacts> {
    const history = await this.incidents.history(organizationId, incidentId, ALERT_EVENTS_LISTED);
    const investigations = await this.investigations.recordsOfIncidents(organizationId, [incidentId, ...history.merged.map((m) => m.id)]);
    return { history, investigations };
  }

  private requireResolved(facts: PostmortemFacts): void {
    const { incident } = facts.history;
    if (incident.status === 'merged') throw new ConflictError(`The incident was merged into ${incident.mergedInto}: write the postmortem of that incident`);
    if (incident.status !== 'resolved') throw new ConflictError('The incident is not resolved: a postmortem is written once every alert in it resolved');
  }

  private async runOrdinals(organizationId: string, incidentId: string): Promise<Map<string, number[]>> {
    const history = await this.incidents.history(organizationId, incidentId, 0);
    const records = await this.investigations.recordsOfIncidents(organizationId, [incidentId, ...history.merged.map((m) => m.id)]);
    return new Map(records.map((r) => [r.id, r.runOrdinals]));
  }

  /**
   * Checks the citations of corrected entries (an investigation of this incident, runs it has) and
   * returns the entries with their citation fields filled in; a bad citation is 400 naming it.
   */
  private async checkCitations(organizationId: string, incidentId: string, correction: PostmortemCorrection): Promise<Partial<PostmortemDocument>> {
    const lists = (['timeline', 'rootCauses', 'contributingFactors', 'actionItems'] as const).filter((f) => correction[f] !== undefined);
    if (lists.length === 0) return {};
    const ordinals = await this.runOrdinals(organizationId, incidentId);
    const out: Record<string, unknown[]> = {};
    for (const field of lists) {
      out[field] = (correction[field] as Array<{ runRefs?: number[]; investigationId?: string | null }>).map((entry, index) => {
        const runRefs = entry.runRefs ?? [];
        const investigationId = entry.investigationId ?? null;
        const where = `${field}[${index}]`;
        if (investigationId === null) {
          if (runRefs.length) throw new InvalidInputError(`Invalid input: ${where}.runRefs needs ${where}.investigationId`);
        } else {
          const known = ordinals.get(investigationId);
          if (!known) throw new InvalidInputError(`Invalid input: ${where}.investigationId is not an investigation of this incident`);
          const missing = runRefs.find((n) => !known.includes(n));
          if (missing !== undefined)
            throw new InvalidInputError(`Invalid input: ${where}.runRefs names run ${missing}, which investigation ${investigationId} does not have`);
        }
        const cited = { ...entry, runRefs, investigationId };
        return field === 'timeline' ? { source: null, ...cited, at: Timestamp.parse((entry as { at: string }).at)!.toISOString() } : cited;
      });
    }
    return out as Partial<PostmortemDocument>;
  }
}
