import { useCallback, useEffect, useMemo, useState } from 'react';
import { api, errorText, type Permission, type Schemas, setOrganization } from './api/client';
import { Administration } from './pages/Administration';
import { ConversationPage, ConversationsPage } from './pages/Conversations';
import { IncidentPage, IncidentsPage } from './pages/Incidents';
import { InvestigationPage } from './pages/Investigation';
import { PostmortemPage } from './pages/Postmortem';
import { SignIn } from './pages/SignIn';
import { Link, match, navigate, useLocation } from './router';
import { SessionContext, type SessionState, useCan, useSession } from './session';
import { localZone, setTimeZone, useTimeZone, type ZoneSetting } from './clock';
import { ErrorMessage } from './ui';

type Boot =
  | { state: 'loading' }
  | { state: 'signed-out' }
  | { state: 'error'; message: string }
  | { state: 'ready'; value: Omit<SessionState, 'switchOrganization' | 'signOut'> };

async function loadSession(organizationId?: string): Promise<Boot> {
  const current = await api.GET('/api/v1/session');
  if (current.response.status === 401) return { state: 'signed-out' };
  if (!current.data) return { state: 'error', message: errorText(current.error, current.response) };
  const list = await api.GET('/api/v1/organizations', { params: { query: { limit: 200 } } });
  if (!list.data) return { state: 'error', message: errorText(list.error, list.response) };
  const organizations = list.data.organizations;
  const organization = organizations.find((o) => o.id === organizationId) ?? current.data.organization ?? organizations[0] ?? null;
  setOrganization(organization?.id ?? null);
  let permissions = new Set<Permission>();
  if (organization) {
    const granted = await api.GET('/api/v1/permissions');
    if (!granted.data) return { state: 'error', message: errorText(granted.error, granted.response) };
    permissions = new Set(granted.data.permissions);
  }
  return { state: 'ready', value: { session: current.data, organizations, organization, permissions } };
}

const ORGANIZATION_KEY = 'svc.organization';

export function App() {
  const [boot, setBoot] = useState<Boot>({ state: 'loading' });
  const load = useCallback(async (organizationId?: string) => {
    try {
      setBoot(await loadSession(organizationId ?? localStorage.getItem(ORGANIZATION_KEY) ?? undefined));
    } catch (error) {
      setBoot({ state: 'error', message: errorText(error) });
    }
  }, []);
  useEffect(() => void load(), [load]);

  const context = useMemo<SessionState | null>(() => {
    if (boot.state !== 'ready') return null;
    return {
      ...boot.value,
      switchOrganization: (id: string) => {
        localStorage.setItem(ORGANIZATION_KEY, id);
        setBoot({ state: 'loading' });
        void load(id).then(() => navigate('/incidents'));
      },
      signOut: async () => {
        await api.DELETE('/api/v1/session');
        setOrganization(null);
        setBoot({ state: 'signed-out' });
        navigate('/sign-in', true);
      },
    };
  }, [boot, load]);

  if (boot.state === 'loading') return <p role="status">Loading…</p>;
  if (boot.state === 'error')
    return (
      <main>
        <h1>Incident Investigation Service</h1>
        <ErrorMessage message={boot.message} />
      </main>
    );
  if (boot.state === 'signed-out' || !context)
    return (
      <SignIn
        onSignedIn={() => {
          void load();
          if (location.pathname === '/sign-in') navigate('/incidents', true);
        }}
      />
    );
  return (
    <SessionContext.Provider value={context}>
      <Shell />
    </SessionContext.Provider>
  );
}

function Shell() {
  const { session, organizations, organization, switchOrganization, signOut } = useSession();
  const can = useCan();
  const { path } = useLocation();
  // Every time shown follows the chosen zone: the pages below render again when it changes.
  const zone = useTimeZone();
  const admin = (['integrations:write', 'members:write', 'policy:write', 'api-tokens:write', 'audit-events:read'] as Permission[]).some(can);
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header>
        <nav aria-label="Main">
          <strong>Incident Investigation</strong>
          <Link to="/incidents" aria-current={path.startsWith('/incidents') ? 'page' : undefined}>
            Incidents
          </Link>
          <Link to="/conversations" aria-current={path.startsWith('/conversations') ? 'page' : undefined}>
            Conversations
          </Link>
          {admin ? (
            <Link to="/admin" aria-current={path.startsWith('/admin') ? 'page' : undefined}>
              Administration
            </Link>
          ) : null}
        </nav>
        <div className="who">
          <label>
            Organization
            <select value={organization?.id ?? ''} onChange={(e) => switchOrganization(e.target.value)}>
              {organizations.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.displayName} ({o.membership.role})
                </option>
              ))}
            </select>
          </label>
          <label>
            Times in
            <select value={zone} onChange={(e) => setTimeZone(e.target.value as ZoneSetting)}>
              <option value="UTC">UTC</option>
              <option value="local">{localZone()} (this browser)</option>
            </select>
          </label>
          <span>{session.user.name}</span>
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {organization ? <Routes path={path} /> : <p>You are not a member of any Organization yet: ask an Admin to add you.</p>}
      </main>
    </>
  );
}

function Routes({ path }: { path: string }) {
  let params: Record<string, string> | null;
  if ((params = match('/incidents/:id/postmortem', path))) return <PostmortemPage incidentId={params.id} />;
  if ((params = match('/incidents/:id', path))) return <IncidentPage id={params.id} />;
  if ((params = match('/investigations/:id', path))) return <InvestigationPage id={params.id} />;
  if ((params = match('/conversations/:id', path))) return <ConversationPage id={params.id} />;
  if (match('/conversations', path)) return <ConversationsPage />;
  if (path.startsWith('/admin')) return <Administration path={path} />;
  if (path === '/' || path === '/sign-in' || match('/incidents', path)) return <IncidentsPage />;
  return (
    <>
      <h1>Not found</h1>
      <p>
        There is no page at {path}. <Link to="/incidents">Go to the incidents</Link>.
      </p>
    </>
  );
}

export type { Schemas };
