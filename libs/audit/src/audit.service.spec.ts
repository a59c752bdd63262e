import { describe, expect, it } from 'vitest';
import { scrubSecrets } from './audit.service';

describe('scrubSecrets', () => {
  it('drops secret fields at any depth and keeps settings that merely mention tokens', () => {
    expect(
      scrubSecrets({
        email: 'a@example.com',
        password: 'x',
        nested: { token: 't', webhookSecret: 's', list: [{ apiKey: 'k', name: 'n' }] },
        apiTokensAllowed: true,
        contextTokens: 5,
        credentials: { user: 'u' },
      }),
    ).toEqual({ email: 'a@example.com', nested: { list: [{ name: 'n' }] }, apiTokensAllowed: true, contextTokens: 5 });
  });
});
