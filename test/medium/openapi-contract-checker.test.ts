import { describe, expect, it } from 'vitest';
import { OpenApiContract } from '../support/openapi-contract';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

const contract = () =>
  new OpenApiContract({
    openapi: '3.0.0',
    paths: {
      '/things/{thing}': { get: { responses: { '200': json({ $ref: '#/components/schemas/Thing' }), '404': json({ $ref: '#/components/schemas/Error' }) } } },
      '/things/special': { get: { responses: { '204': { description: 'none' } } } },
    },
    components: {
      schemas: {
        Thing: {
          type: 'object',
          properties: { id: { type: 'string', format: 'uuid' }, note: { type: 'string', nullable: true }, count: { type: 'integer' } },
          required: ['id', 'note'],
        },
        Error: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] },
      },
    },
  });

const ok = (body: unknown, status = 200, contentType = 'application/json; charset=utf-8') => ({ status, contentType, body, text: JSON.stringify(body) });
const ID = '0190f5a8-0000-7000-8000-000000000000';

/** The checker the e2e tests rely on must fail on what it is there to catch. */
describe('the OpenAPI contract checker', () => {
  it('accepts a matching body, null for a nullable field, and prefers literal path segments', () => {
    expect(contract().check('GET', `/things/${ID}`, ok({ id: ID, note: null, count: 2 }))).toEqual([]);
    expect(contract().check('GET', '/things/special', { status: 204, contentType: null, body: undefined, text: '' })).toEqual([]);
  });

  it('reports undocumented statuses, media types, properties, wrong types, formats and missing fields', () => {
    const c = contract();
    expect(c.check('GET', `/things/${ID}`, ok({ error: 'x' }, 500))[0]).toContain('status not documented');
    expect(c.check('GET', `/things/${ID}`, ok({ id: ID, note: null }, 200, 'text/plain'))[0]).toContain('media type text/plain not documented');
    expect(c.check('GET', `/things/${ID}`, ok({ id: ID, note: null, extra: 1 }))[0]).toContain('must NOT have additional properties (extra)');
    expect(c.check('GET', `/things/${ID}`, ok({ id: ID, note: {} }))[0]).toContain('/note');
    expect(c.check('GET', `/things/${ID}`, ok({ id: 'not-a-uuid', note: null }))[0]).toContain('must match format "uuid"');
    expect(c.check('GET', `/things/${ID}`, ok({ id: ID }))[0]).toContain("must have required property 'note'");
    expect(c.check('GET', `/things/${ID}`, ok({ id: ID, note: null, count: 1.5 }))[0]).toContain('must be integer');
    expect(c.check('GET', '/elsewhere', ok({}))[0]).toContain('no operation in the document');
  });
});
