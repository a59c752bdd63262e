import { countTokens } from 'gpt-tokenizer';

const NO_SPECIAL_TOKENS = { disallowedSpecial: new Set<string>() };

/**
 * Tokens a request will take, estimated before it is sent: the o200k_base count (OpenAI's current
 * encoding) of the serialized system prompt, messages and tool definitions. JSON punctuation makes
 * it a slight over-estimate for OpenAI models; Anthropic's tokenizer differs by some percent. The
 * provider's reported input tokens remain what is recorded as usage.
 */
export function estimateTokens(request: unknown): number {
  return countTokens(JSON.stringify(request) ?? '', NO_SPECIAL_TOKENS);
}
