import { Injectable, Logger } from '@nestjs/common';
import { generateText, jsonSchema, tool } from 'ai';
import { createLanguageModel, LanguageModelConnection, languageModelConnectionFrom } from '@svc/investigations/engine';
import { AppConfig } from '@svc/platform';
import { NarrativeJob, PostmortemsService } from '../postmortems.service';
import { checkNarrative, NARRATIVE_SCHEMA, NARRATIVE_SYSTEM_PROMPT, WRITE_NARRATIVE_TOOL } from './postmortem-narrative';

export type NarrativeOutcome = 'no_model' | 'moved_on' | 'stored' | 'discarded' | 'model_failed';

/**
 * Asks the deployment's language model for the narrative fields of a facts-only draft, from those
 * facts only, and stores a checked answer as the next revision. Without a model, or when the
 * answer fails its check or the model fails, the facts-only text stays the document.
 */
@Injectable()
export class PostmortemNarrativeWriter {
  private readonly logger = new Logger(PostmortemNarrativeWriter.name);
  private readonly connection: LanguageModelConnection | null;
  /** How long the one model call may take, its retry included. */
  private readonly callTimeoutMs: number;

  constructor(
    config: AppConfig,
    private readonly postmortems: PostmortemsService,
  ) {
    this.connection = languageModelConnectionFrom(config);
    this.callTimeoutMs = config.SVC_POSTMORTEM_NARRATIVE_TIMEOUT_SECONDS * 1000;
  }

  async write(organizationId: string, job: NarrativeJob): Promise<NarrativeOutcome> {
    if (!this.connection) return 'no_model';
    const facts = await this.postmortems.narrativeFacts(organizationId, job);
    if (!facts) return 'moved_on';
    const { document } = facts.postmortem;
    const prompt = JSON.stringify({
      incidentId: facts.postmortem.incidentId,
      investigations: [...facts.runOrdinals].map(([investigationId, runOrdinals]) => ({ investigationId, runOrdinals })),
      facts: document,
    });
    let input: unknown;
    try {
      const result = await generateText({
        model: createLanguageModel(this.connection),
        system: NARRATIVE_SYSTEM_PROMPT,
        prompt: `The postmortem's recorded facts, as JSON:\n${prompt}`,
        tools: {
          [WRITE_NARRATIVE_TOOL]: tool({
            description: 'Hand in the narrative parts, each with its citations.',
            inputSchema: jsonSchema(NARRATIVE_SCHEMA as never),
          }),
        },
        toolChoice: { type: 'tool', toolName: WRITE_NARRATIVE_TOOL },
        maxRetries: 1,
        abortSignal: AbortSignal.timeout(this.callTimeoutMs),
      });
      input = result.toolCalls.find((c) => c.toolName === WRITE_NARRATIVE_TOOL)?.input;
    } catch (error) {
      this.logger.warn(
        { organizationId, postmortemId: job.postmortemId, err: (error as Error).message },
        'The language model did not write the postmortem narrative',
      );
      return 'model_failed';
    }
    const checked = checkNarrative(input, facts.runOrdinals);
    if (!checked.ok) {
      this.logger.warn({ organizationId, postmortemId: job.postmortemId, problems: checked.problems }, 'Postmortem narrative discarded');
      return 'discarded';
    }
    return (await this.postmortems.applyNarrative(organizationId, job, checked.narrative)) ? 'stored' : 'moved_on';
  }
}
