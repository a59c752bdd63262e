import { jsonSchema, tool, type ToolSet } from 'ai';
import { CAUSES_NEAR_ONSET_TOOL, causesNearOnsetDescription, causesNearOnsetSchema, detectorSources } from './language-model-causes';
import { conclusionSchema, hypothesesUpdateSchema, toolSchemaOf } from './language-model-conclusion';
import type { InvestigationSession, SessionTool, ToolCall } from './reasoner';

/** The two tools that are the reasoner's own, not the session's. */
export const CONCLUDE_TOOL = 'conclude';
export const UPDATE_HYPOTHESES_TOOL = 'update_hypotheses';
/** Offered in conversation turns only: ends the turn `needs_input` with a question for the person. */
export const ASK_PERSON_TOOL = 'ask_person';

/** Arguments the reasoner adds to every session tool; renamed `reasoner_<name>` if a tool already has one. */
const META = ['integrationId', 'purpose', 'hypothesisId', 'hypothesis'] as const;
type Meta = (typeof META)[number];

interface OfferedTool {
  tool: SessionTool;
  meta: Record<Meta, string>;
  /** The sources of the tool's integration type; empty for tools over the service's own data. */
  integrationIds: string[];
}

/** A model's tool call decoded into the session's terms. */
export interface DecodedCall {
  call: ToolCall;
  /** The statement of the hypothesis the call tests, when it states one. */
  hypothesis?: string;
}

type JsonSchemaInput = Parameters<typeof jsonSchema>[0];

/**
 * Provider APIs accept tool names of `[a-zA-Z0-9_-]{1,64}`; the catalog's names contain dots
 * (`prometheus.query_range`), so each gets a wire name (`prometheus__query_range`) and a way back.
 */
function wireNameOf(name: string, taken: Set<string>): string {
  const base =
    name
      .replace(/\./g, '__')
      .replace(/[^a-zA-Z0-9_-]/g, '_')
      .slice(0, 60) || 'tool';
  let candidate = base;
  for (let i = 2; taken.has(candidate); i++) candidate = `${base}_${i}`;
  taken.add(candidate);
  return candidate;
}

const stringArg = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** The tools offered to the model for one investigation, and the decoding of the calls it makes. */
export class LanguageModelTools {
  /** Everything the model may call while investigating. */
  readonly all: ToolSet;
  /** Only `conclude`: for the final call after a budget stopped the run. */
  readonly concludeOnly: ToolSet;
  private readonly offered = new Map<string, OfferedTool>();
  /** What each tool looks like on the wire, for estimating a request's tokens. */
  private readonly wire = new Map<string, { name: string; description: string; parameters: Record<string, unknown> }>();

  constructor(session: InvestigationSession) {
    const taken = new Set<string>([CONCLUDE_TOOL, UPDATE_HYPOTHESES_TOOL, ASK_PERSON_TOOL, CAUSES_NEAR_ONSET_TOOL]);
    const tools: ToolSet = {};
    for (const sessionTool of session.tools) {
      const integrationIds =
        sessionTool.integrationType === null ? [] : session.sources.filter((s) => s.type === sessionTool.integrationType).map((s) => s.integrationId);
      // A tool over an integration type no source has could only ever be refused.
      if (sessionTool.integrationType !== null && integrationIds.length === 0) continue;
      const properties = (sessionTool.argumentsSchema.properties ?? {}) as Record<string, unknown>;
      const meta = Object.fromEntries(META.map((key) => [key, key in properties ? `reasoner_${key}` : key])) as Record<Meta, string>;
      const wireName = wireNameOf(sessionTool.name, taken);
      this.offered.set(wireName, { tool: sessionTool, meta, integrationIds });
      tools[wireName] = this.schemaTool(wireName, this.describe(sessionTool), this.schemaOf(sessionTool, meta, integrationIds));
    }
    const detectable = detectorSources(session).map((s) => s.integrationId);
    if (detectable.length > 0)
      tools[CAUSES_NEAR_ONSET_TOOL] = this.schemaTool(CAUSES_NEAR_ONSET_TOOL, causesNearOnsetDescription, causesNearOnsetSchema(detectable));
    const conclude = this.schemaTool(
      CONCLUDE_TOOL,
      'Hand in the conclusion of the investigation. Call it alone, once the evidence is gathered or no further query would help. Cite tool runs by their ordinals.',
      toolSchemaOf(conclusionSchema),
    );
    tools[UPDATE_HYPOTHESES_TOOL] = this.schemaTool(
      UPDATE_HYPOTHESES_TOOL,
      'Record your running hypotheses (the whole list; it replaces the previous one). People follow them while you work.',
      toolSchemaOf(hypothesesUpdateSchema),
    );
    if (session.conversation) {
      tools[ASK_PERSON_TOOL] = this.schemaTool(
        ASK_PERSON_TOOL,
        'Stop and ask the person one question, when the question names something the sources do not have or could mean several things. The turn ends with your question as its answer; their reply starts the next turn. Call it alone.',
        {
          type: 'object',
          properties: {
            question: {
              type: 'string',
              minLength: 1,
              maxLength: 4096,
              description: 'The question, naming what you did find (services, jobs, alerts) to choose from',
            },
          },
          required: ['question'],
          additionalProperties: false,
        },
      );
    }
    tools[CONCLUDE_TOOL] = conclude;
    this.all = tools;
    this.concludeOnly = { [CONCLUDE_TOOL]: conclude };
  }

  /** The definitions of a tool set as sent to the provider (name, description, JSON schema). */
  definitions(set: ToolSet): unknown[] {
    return Object.keys(set).map((name) => this.wire.get(name));
  }

  isSessionTool(wireName: string): boolean {
    return this.offered.has(wireName);
  }

  /** The model's arguments split into the session's ToolCall and the reasoner's own fields. */
  decode(wireName: string, input: unknown): DecodedCall {
    const offered = this.offered.get(wireName);
    if (!offered) throw new Error(`not an offered tool: ${wireName}`);
    const args: Record<string, unknown> = typeof input === 'object' && input !== null && !Array.isArray(input) ? { ...(input as Record<string, unknown>) } : {};
    const take = (key: Meta) => {
      const value = args[offered.meta[key]];
      delete args[offered.meta[key]];
      return value;
    };
    const integrationArg = offered.tool.integrationType === null ? undefined : take('integrationId');
    const purpose = stringArg(take('purpose'));
    const hypothesisId = stringArg(take('hypothesisId'));
    const hypothesis = stringArg(take('hypothesis'));
    let integrationId: string | null = null;
    if (offered.tool.integrationType !== null) {
      // With a single source of the type there is nothing to choose; otherwise the session refuses a missing one.
      integrationId = typeof integrationArg === 'string' ? integrationArg : offered.integrationIds.length === 1 ? offered.integrationIds[0] : null;
    }
    return {
      call: {
        tool: offered.tool.name,
        integrationId,
        arguments: args,
        purpose: (purpose ?? '(no purpose given)').slice(0, 1024),
        ...(hypothesisId ? { hypothesisId: hypothesisId.slice(0, 64) } : {}),
      },
      ...(hypothesis ? { hypothesis } : {}),
    };
  }

  private schemaTool(name: string, description: string, parameters: Record<string, unknown>) {
    this.wire.set(name, { name, description, parameters });
    // No `execute`: the reasoner runs every call itself, through the session. No validator either:
    // arguments are checked by the session (tools) or by the reasoner (conclusion), with precise messages.
    return tool({ description, inputSchema: jsonSchema<Record<string, unknown>>(parameters as JsonSchemaInput) });
  }

  private describe(sessionTool: SessionTool): string {
    return sessionTool.integrationType === null
      ? sessionTool.description
      : `${sessionTool.description}\nReads a ${sessionTool.integrationType} integration: set integrationId to one of the ranked sources of that type.`;
  }

  private schemaOf(sessionTool: SessionTool, meta: Record<Meta, string>, integrationIds: string[]): Record<string, unknown> {
    const schema = sessionTool.argumentsSchema;
    const properties: Record<string, unknown> = { ...((schema.properties ?? {}) as Record<string, unknown>) };
    const required = Array.isArray(schema.required) ? [...(schema.required as string[])] : [];
    if (sessionTool.integrationType !== null) {
      properties[meta.integrationId] = {
        type: 'string',
        enum: integrationIds,
        description: `The ${sessionTool.integrationType} integration to read: the integrationId of a ranked source`,
      };
      required.push(meta.integrationId);
    }
    properties[meta.purpose] = {
      type: 'string',
      minLength: 1,
      maxLength: 1024,
      description: 'Why you run this, in one sentence (shown to the people following the investigation)',
    };
    properties[meta.hypothesisId] = {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: 'The id of the hypothesis this run tests, if it tests one, e.g. "h1"',
    };
    properties[meta.hypothesis] = {
      type: 'string',
      minLength: 1,
      maxLength: 8192,
      description: 'The statement of that hypothesis, when hypothesisId names a new one',
    };
    required.push(meta.purpose);
    return { ...schema, type: 'object', properties, required, additionalProperties: false };
  }
}
