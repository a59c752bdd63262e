import { describe, expect, it } from 'vitest';
import { TRUNCATION_MARKER } from '@svc/platform';
import { AUDIT_TEXT_MAX_LENGTH, auditableDetail } from './audit.service';

describe('auditableDetail', () => {
  it('drops secret fields at any depth and keeps settings that merely mention tokens', () => {
    expect(
      auditableDetail({
        email: 'a@example.com',
        password: 'x',
        nested: { token: 't', webhookSecret: 's', list: [{ apiKey: 'k', name: 'n' }] },
        apiTokensAllowed: true,
        contextTokens: 5,
        credentials: { user: 'u' },
      }),
    ).toEqual({ email: 'a@example.com', nested: { list: [{ name: 'n' }] }, apiTokensAllowed: true, contextTokens: 5 });
  });

  it('cuts every string, at any depth, to the documented length ending with the truncation marker', () => {
    const long = 'v'.repeat(AUDIT_TEXT_MAX_LENGTH + 1);
    const exact = 'e'.repeat(AUDIT_TEXT_MAX_LENGTH);
    const detail = auditableDetail({ value: long, exact, nested: { list: [long] }, [long]: 1 }) as Record<string, any>;
    expect([...detail.value]).toHaveLength(AUDIT_TEXT_MAX_LENGTH);
    expect(detail.value.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(detail.exact).toBe(exact);
    expect(detail.nested.list[0]).toBe(detail.value);
    expect(Object.keys(detail).every((k) => [...k].length <= AUDIT_TEXT_MAX_LENGTH)).toBe(true);
  });
});
