import { Injectable } from '@nestjs/common';
import { AppConfig } from '@svc/platform';
import { BuiltInReasoner } from '../reasoning/built-in-reasoner';
import { LanguageModelConnection, languageModelConnectionFrom } from '../reasoning/language-model-provider';
import { LanguageModelReasoner } from '../reasoning/language-model-reasoner';
import type { Reasoner } from '../reasoning/reasoner';

/** The language-model reasoner when a model is configured (decisions §6), the built-in one otherwise. */
@Injectable()
export class ReasonerFactory {
  private readonly model: LanguageModelConnection | null;

  constructor(config: AppConfig) {
    this.model = languageModelConnectionFrom(config);
  }

  /** A new reasoner for one investigation (reasoners keep that investigation's state). */
  create(): Reasoner {
    return this.model ? new LanguageModelReasoner(this.model) : new BuiltInReasoner();
  }
}
