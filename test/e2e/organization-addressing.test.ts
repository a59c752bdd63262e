import { Controller, Get } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CurrentOrganization, OrganizationContext, RequirePermission } from '@svc/platform';
import { startApi, TestApi } from '../support/api';
import { bootstrap, signedInMember } from '../support/factories';

/** A probe mounted at one of the aliased resources, echoing the Organization the guard resolved. */
@Controller('api/v1/incidents')
class ProbeController {
  @RequirePermission('incidents:read')
  @Get('probe')
  probe(@CurrentOrganization() organization: OrganizationContext) {
    return { organization: organization.id, role: organization.membership.role };
  }

  @RequirePermission('incidents:read', { organizationHeader: 'required' })
  @Get('probe-header-required')
  headerRequired(@CurrentOrganization() organization: OrganizationContext) {
    return { organization: organization.id };
  }
}

describe('Organization addressing (decisions §1)', () => {
  let api: TestApi;
  let viewer: Awaited<ReturnType<typeof signedInMember>>['client'];

  beforeAll(async () => {
    api = await startApi({ extra: { controllers: [ProbeController] } });
    const { admin } = await bootstrap(api);
    await admin.post('/api/v1/organizations', { id: 'beta', displayName: 'Beta' });
    await admin.post('/api/v1/organizations', { id: 'gamma', displayName: 'Gamma' });
    ({ client: viewer } = await signedInMember(api, 'acme', 'viewer'));
    const [{ user_id: viewerId }] = await api.dataSource.query(`SELECT user_id FROM memberships WHERE organization_id = 'acme' AND role = 'viewer'`);
    await api.dataSource.query(`INSERT INTO memberships (organization_id, id, user_id, role) VALUES ('beta', gen_random_uuid(), $1, 'editor')`, [viewerId]);
  });
  afterAll(() => api?.close());

  it("flat path: the session's active Organization", async () => {
    const res = await viewer.get('/api/v1/incidents/probe');
    expect(res.body).toEqual({ organization: 'acme', role: 'viewer' });
  });

  it('flat path: the header wins over the session', async () => {
    const res = await viewer.get('/api/v1/incidents/probe', { headers: { 'x-svc-organization': 'beta' } });
    expect(res.body).toEqual({ organization: 'beta', role: 'editor' });
  });

  it('alias path reaches the same handler with the Organization of the path', async () => {
    const res = await viewer.get('/api/v1/organizations/beta/incidents/probe');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ organization: 'beta', role: 'editor' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('alias path with a header naming the same Organization is fine, a different one is 400', async () => {
    expect((await viewer.get('/api/v1/organizations/beta/incidents/probe', { headers: { 'x-svc-organization': 'beta' } })).status).toBe(200);
    const res = await viewer.get('/api/v1/organizations/beta/incidents/probe', { headers: { 'x-svc-organization': 'acme' } });
    expect(res.status).toBe(400);
  });

  it('an alias path naming an Organization the caller is not in is 403 credential_rejected, existing or not', async () => {
    for (const org of ['gamma', 'nope']) {
      const res = await viewer.get(`/api/v1/organizations/${org}/incidents/probe`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'Organization not available', reason: 'credential_rejected' });
    }
  });

  it('an operation that requires the header refuses to fall back to the session or the path', async () => {
    expect((await viewer.get('/api/v1/incidents/probe-header-required')).status).toBe(400);
    expect((await viewer.get('/api/v1/organizations/acme/incidents/probe-header-required')).status).toBe(400);
    const res = await viewer.get('/api/v1/incidents/probe-header-required', { headers: { 'x-svc-organization': 'beta' } });
    expect(res.body).toEqual({ organization: 'beta' });
  });

  it('only the listed resources have alias paths', async () => {
    expect((await viewer.get('/api/v1/organizations/acme/permissions')).status).toBe(404);
  });
});
