import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import type { AppConfig } from '@svc/platform';

export type LanguageModelProvider = 'openai-compatible' | 'anthropic';

/** Where the model is: the deployment settings SVC_LLM_PROVIDER, SVC_LLM_BASE_URL, SVC_LLM_API_KEY, SVC_LLM_MODEL. */
export interface LanguageModelConnection {
  provider: LanguageModelProvider;
  /** The API root including its version path, e.g. `https://api.openai.com/v1`; a bare origin gets `/v1`. */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer` (openai-compatible) or `x-api-key` (anthropic); optional for local servers. */
  apiKey?: string;
  model: string;
}

const DEFAULT_BASE_URLS: Record<LanguageModelProvider, string> = {
  'openai-compatible': 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
};

/** The API root the SDK appends `/chat/completions` or `/messages` to. */
export function apiRootOf(connection: LanguageModelConnection): string {
  const url = new URL(connection.baseUrl ?? DEFAULT_BASE_URLS[connection.provider]);
  if (url.pathname === '' || url.pathname === '/') url.pathname = '/v1';
  return url.toString().replace(/\/+$/, '');
}

export function createLanguageModel(connection: LanguageModelConnection): LanguageModel {
  const baseURL = apiRootOf(connection);
  if (connection.provider === 'anthropic') {
    // An explicit (possibly empty) key: the SDK would otherwise read ANTHROPIC_API_KEY from the environment.
    return createAnthropic({ baseURL, apiKey: connection.apiKey ?? '' }).messages(connection.model);
  }
  return createOpenAICompatible({ name: 'openai-compatible', baseURL, apiKey: connection.apiKey, includeUsage: true }).chatModel(connection.model);
}

/** The language model the deployment configures, or null when none is (the built-in reasoner runs then). */
export function languageModelConnectionFrom(config: AppConfig): LanguageModelConnection | null {
  if (!config.SVC_LLM_PROVIDER || !config.SVC_LLM_MODEL) return null;
  return {
    provider: config.SVC_LLM_PROVIDER,
    model: config.SVC_LLM_MODEL,
    ...(config.SVC_LLM_BASE_URL ? { baseUrl: config.SVC_LLM_BASE_URL } : {}),
    ...(config.SVC_LLM_API_KEY ? { apiKey: config.SVC_LLM_API_KEY } : {}),
  };
}
