import { type FormEvent, useState } from 'react';
import { api, currentOrganization, organizationPath, type Permission, type Schemas } from '../api/client';
import { fromInput, toInput, zoneLabel } from '../clock';
import { Pager, useCursor } from '../paging';
import { Link, updateQuery, useLocation } from '../router';
import { useCan, useSession } from '../session';
import { ConfirmButton, ErrorMessage, Show, Status, time, useAction, useLoad, useTitle } from '../ui';

const PAGE_SIZE = 100;

const SECTIONS: Array<{ path: string; label: string; read: Permission | null }> = [
  { path: 'integrations', label: 'Integrations', read: 'integrations:read' },
  { path: 'members', label: 'Members', read: 'members:read' },
  { path: 'sessions', label: 'Sessions', read: null },
  { path: 'api-tokens', label: 'API tokens', read: 'api-tokens:read' },
  { path: 'policy', label: 'Policy', read: 'policy:read' },
  { path: 'relays', label: 'Relays', read: 'relays:read' },
  { path: 'deliveries', label: 'Webhook deliveries', read: 'webhook-deliveries:read' },
  { path: 'audit', label: 'Audit events', read: 'audit-events:read' },
];

export function Administration({ path }: { path: string }) {
  const can = useCan();
  const sections = SECTIONS.filter((s) => !s.read || can(s.read));
  const current = sections.find((s) => path === `/admin/${s.path}`) ?? sections[0];
  useTitle(current ? `${current.label} · Administration` : 'Administration');
  return (
    <>
      <h1>Administration</h1>
      <nav aria-label="Administration">
        {sections.map((s) => (
          <Link key={s.path} to={`/admin/${s.path}`} aria-current={s === current ? 'page' : undefined} style={{ marginRight: 16 }}>
            {s.label}
          </Link>
        ))}
      </nav>
      {current.path === 'integrations' ? <Integrations /> : null}
      {current.path === 'members' ? <Members /> : null}
      {current.path === 'sessions' ? <Sessions /> : null}
      {current.path === 'api-tokens' ? <ApiTokens /> : null}
      {current.path === 'policy' ? <Policy /> : null}
      {current.path === 'relays' ? <Relays /> : null}
      {current.path === 'deliveries' ? <Deliveries /> : null}
      {current.path === 'audit' ? <Audit /> : null}
    </>
  );
}

/** A secret the service shows this once, with a copy button. */
function ShownOnce({ label, value, children }: { label: string; value: string; children?: React.ReactNode }) {
  const [copied, setCopied] = useState(false);
  return (
    <section aria-label={label} className="confirm">
      <h3>{label}</h3>
      {children}
      <p>It is shown this once: copy it now.</p>
      <p className="secret" data-secret>
        {value}
      </p>
      <button type="button" onClick={() => void navigator.clipboard.writeText(value).then(() => setCopied(true))}>
        Copy {label.toLowerCase()}
      </button>{' '}
      <span role="status">{copied ? 'Copied' : ''}</span>
    </section>
  );
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  description?: string;
  title?: string;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  enum?: unknown[];
}

interface IntegrationType {
  id: Schemas['CreateIntegrationDto']['type'];
  displayName?: string;
  configSchema?: JsonSchema;
  credentialsSchema?: JsonSchema;
}

/** The properties a form offers for a schema: its own, or those of each alternative. */
function fieldsOf(schema: JsonSchema | undefined): Array<[string, JsonSchema, boolean]> {
  if (!schema) return [];
  const out = new Map<string, [string, JsonSchema, boolean]>();
  for (const s of [schema, ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])])
    for (const [name, prop] of Object.entries(s.properties ?? {}))
      if (!out.has(name)) out.set(name, [name, prop, (s.required ?? []).includes(name) && s === schema]);
  return [...out.values()];
}

function typeOf(schema: JsonSchema): string {
  return (Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type) ?? 'string';
}

/** Form values to the JSON the schema asks for; empty fields are left out. */
function valuesFor(fields: Array<[string, JsonSchema, boolean]>, values: Record<string, string>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of fields) {
    const raw = values[name]?.trim();
    if (!raw) continue;
    const type = typeOf(schema);
    if (type === 'array')
      out[name] = raw
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
    else if (type === 'integer' || type === 'number') out[name] = Number(raw);
    else if (type === 'boolean') out[name] = raw === 'true';
    else out[name] = raw;
  }
  return Object.keys(out).length ? out : undefined;
}

function SchemaFields({
  prefix,
  fields,
  values,
  onChange,
}: {
  prefix: string;
  fields: Array<[string, JsonSchema, boolean]>;
  values: Record<string, string>;
  onChange: (name: string, value: string) => void;
}) {
  return (
    <>
      {fields.map(([name, schema, required]) => {
        const type = typeOf(schema);
        const label = `${prefix} ${schema.title ?? name}${type === 'array' ? ' (comma separated)' : ''}`;
        return (
          <label key={name}>
            {label}
            {type === 'boolean' ? (
              <select value={values[name] ?? ''} onChange={(e) => onChange(name, e.target.value)}>
                <option value="">(default)</option>
                <option value="true">yes</option>
                <option value="false">no</option>
              </select>
            ) : schema.enum ? (
              <select value={values[name] ?? ''} onChange={(e) => onChange(name, e.target.value)}>
                <option value="">(default)</option>
                {schema.enum.map((option) => (
                  <option key={String(option)} value={String(option)}>
                    {String(option)}
                  </option>
                ))}
              </select>
            ) : (
              <input
                type={/password|token|secret/i.test(name) ? 'password' : type === 'integer' || type === 'number' ? 'number' : 'text'}
                value={values[name] ?? ''}
                required={required}
                onChange={(e) => onChange(name, e.target.value)}
              />
            )}
            {schema.description ? <small>{schema.description}</small> : null}
          </label>
        );
      })}
    </>
  );
}

function Integrations() {
  const can = useCan();
  const write = can('integrations:write');
  const [list, reload] = useLoad(() => api.GET('/api/v1/integrations', { params: { query: { limit: 200 } } }), []);
  const [types] = useLoad(() => api.GET('/api/v1/integration-types', { params: { query: { limit: 200 } } }), []);
  const [typeId, setTypeId] = useState('');
  const [name, setName] = useState('');
  const [config, setConfig] = useState<Record<string, string>>({});
  const [credentials, setCredentials] = useState<Record<string, string>>({});
  const [shown, setShown] = useState<{ title: string; secret: string; url: string | null } | null>(null);
  const [error, busy, run] = useAction();
  const catalog = types.state === 'ready' ? (types.data.items as unknown as IntegrationType[]) : [];
  const type = catalog.find((t) => t.id === typeId);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (!type) return;
    let created: Schemas['CreatedIntegrationView'] | undefined;
    const ok = await run(async () => {
      const answer = await api.POST('/api/v1/integrations', {
        body: {
          type: type.id,
          name,
          config: valuesFor(fieldsOf(type.configSchema), config),
          credentials: valuesFor(fieldsOf(type.credentialsSchema), credentials),
        },
      });
      created = answer.data;
      return answer;
    });
    if (ok && created) {
      setShown(created.webhookSecret ? { title: `Integration ${created.name} created`, secret: created.webhookSecret, url: created.webhookUrl } : null);
      setName('');
      setConfig({});
      setCredentials({});
      reload();
    }
  };
  const act = async (work: () => Promise<{ error?: unknown; response: Response }>) => {
    if (await run(work)) reload();
  };
  const rotate = async (id: string, integrationName: string, url: string | null) => {
    let secret: string | undefined;
    if (
      (await run(async () => {
        const answer = await api.POST('/api/v1/integrations/{integration}/rotate-webhook-secret', { params: { path: { integration: id } } });
        secret = answer.data?.webhookSecret;
        return answer;
      })) &&
      secret
    )
      setShown({ title: `New webhook secret of ${integrationName}`, secret, url });
  };

  return (
    <>
      <h2>Integrations</h2>
      {shown ? (
        <ShownOnce label="Webhook secret" value={shown.secret}>
          <p>{shown.title}.</p>
          {shown.url ? (
            <p>
              Webhook URL: <code>{shown.url}</code>
            </p>
          ) : null}
        </ShownOnce>
      ) : null}
      <ErrorMessage message={error} />
      <Show loaded={list} empty={(d) => d.items.length === 0}>
        {(d) => (
          <table aria-label="Integrations">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">State</th>
                <th scope="col">Last verification</th>
                {write ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {d.items.map((i) => (
                <tr key={i.id}>
                  <td>
                    {i.name}
                    {i.webhookUrl ? (
                      <div>
                        <small>{i.webhookUrl}</small>
                      </div>
                    ) : null}
                  </td>
                  <td>{i.type}</td>
                  <td>{i.enabled ? 'enabled' : 'disabled'}</td>
                  <td>{i.lastVerification ? `${i.lastVerification.outcome}: ${i.lastVerification.detail} (${time(i.lastVerification.at)})` : '—'}</td>
                  {write ? (
                    <td>
                      {i.type !== 'generic' ? (
                        <button
                          type="button"
                          className="secondary"
                          disabled={busy}
                          onClick={() => void act(() => api.POST('/api/v1/integrations/{integration}/verify', { params: { path: { integration: i.id } } }))}
                        >
                          Verify {i.name}
                        </button>
                      ) : null}{' '}
                      {i.webhookUrl ? (
                        <ConfirmButton
                          label={`Rotate secret of ${i.name}`}
                          consequence={`The current webhook secret of ${i.name} stops working at once: every sender must be given the new one, which is shown once.`}
                          confirm="Rotate the secret"
                          className="secondary"
                          disabled={busy}
                          onConfirm={() => void rotate(i.id, i.name, i.webhookUrl)}
                        />
                      ) : null}{' '}
                      {i.enabled ? (
                        <ConfirmButton
                          label={`Disable ${i.name}`}
                          consequence={`${i.name} stops accepting deliveries and is no longer read by investigations, until it is enabled again.`}
                          confirm="Disable it"
                          className="secondary"
                          disabled={busy}
                          onConfirm={() => void act(() => api.POST('/api/v1/integrations/{integration}/disable', { params: { path: { integration: i.id } } }))}
                        />
                      ) : (
                        <button
                          type="button"
                          className="secondary"
                          disabled={busy}
                          onClick={() => void act(() => api.POST('/api/v1/integrations/{integration}/enable', { params: { path: { integration: i.id } } }))}
                        >
                          Enable {i.name}
                        </button>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
      {write ? (
        <section aria-labelledby="new-integration">
          <h3 id="new-integration">Add an integration</h3>
          <form onSubmit={create}>
            <label>
              Type
              <select value={typeId} onChange={(e) => setTypeId(e.target.value)} required>
                <option value="">Choose a type</option>
                {catalog.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.displayName ?? t.id}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Name
              <input value={name} onChange={(e) => setName(e.target.value)} required />
            </label>
            {type ? (
              <>
                <SchemaFields prefix="Config:" fields={fieldsOf(type.configSchema)} values={config} onChange={(k, v) => setConfig((c) => ({ ...c, [k]: v }))} />
                <SchemaFields
                  prefix="Credentials:"
                  fields={fieldsOf(type.credentialsSchema)}
                  values={credentials}
                  onChange={(k, v) => setCredentials((c) => ({ ...c, [k]: v }))}
                />
              </>
            ) : null}
            <button type="submit" disabled={busy || !type}>
              Create integration
            </button>
          </form>
        </section>
      ) : null}
    </>
  );
}

const ROLES = ['viewer', 'editor', 'admin'] as const;
type Role = (typeof ROLES)[number];

function Members() {
  const can = useCan();
  const write = can('members:write');
  const [list, reload] = useLoad(() => api.GET('/api/v1/members', { params: { query: { limit: 200 } } }), []);
  const [form, setForm] = useState({ email: '', name: '', password: '', role: 'viewer' as Role });
  const [error, busy, run] = useAction();
  const act = async (work: () => Promise<{ error?: unknown; response: Response }>) => {
    if (await run(work)) reload();
  };
  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (await run(() => api.POST('/api/v1/local-users', { body: form }))) {
      setForm({ email: '', name: '', password: '', role: 'viewer' });
      reload();
    }
  };
  return (
    <>
      <h2>Members</h2>
      <ErrorMessage message={error} />
      <Show loaded={list} empty={(d) => d.items.length === 0}>
        {(d) => (
          <table aria-label="Members">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Account</th>
                {write ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {d.items.map((m) => (
                <tr key={m.id}>
                  <td>{m.name}</td>
                  <td>{m.email}</td>
                  <td>
                    {write ? (
                      <select
                        aria-label={`Role of ${m.name}`}
                        value={m.role}
                        disabled={busy}
                        onChange={(e) =>
                          void act(() => api.PATCH('/api/v1/members/{member}', { params: { path: { member: m.id } }, body: { role: e.target.value as Role } }))
                        }
                      >
                        {ROLES.map((r) => (
                          <option key={r}>{r}</option>
                        ))}
                      </select>
                    ) : (
                      m.role
                    )}
                  </td>
                  <td>
                    {m.local ? 'local' : 'single sign-on'}
                    {m.disabled ? ', disabled' : ''}
                  </td>
                  {write ? (
                    <td>
                      {m.disabled ? (
                        <button
                          type="button"
                          className="secondary"
                          disabled={busy}
                          onClick={() =>
                            void act(() => api.PATCH('/api/v1/members/{member}', { params: { path: { member: m.id } }, body: { disabled: false } }))
                          }
                        >
                          Enable {m.name}
                        </button>
                      ) : (
                        <ConfirmButton
                          label={`Disable ${m.name}`}
                          consequence={`${m.name}'s account is signed out everywhere and cannot sign in until it is enabled again.`}
                          confirm="Disable the member"
                          className="secondary"
                          disabled={busy}
                          onConfirm={() =>
                            void act(() => api.PATCH('/api/v1/members/{member}', { params: { path: { member: m.id } }, body: { disabled: true } }))
                          }
                        />
                      )}{' '}
                      <ConfirmButton
                        label={`Remove ${m.name}`}
                        consequence={`${m.name} loses access to this Organization and every session of theirs ends. This cannot be undone: they would have to be added again.`}
                        confirm="Remove the member"
                        disabled={busy}
                        onConfirm={() => void act(() => api.DELETE('/api/v1/members/{member}', { params: { path: { member: m.id } } }))}
                      />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
      {write ? (
        <section aria-labelledby="new-user">
          <h3 id="new-user">Add a local user</h3>
          <form onSubmit={create}>
            <label>
              Email
              <input type="email" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} required />
            </label>
            <label>
              Name
              <input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} required />
            </label>
            <label>
              Initial password (12 characters or more)
              <input
                type="password"
                autoComplete="new-password"
                value={form.password}
                minLength={12}
                onChange={(e) => setForm({ ...form, password: e.target.value })}
                required
              />
            </label>
            <label>
              Role
              <select value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as Role })}>
                {ROLES.map((r) => (
                  <option key={r}>{r}</option>
                ))}
              </select>
            </label>
            <button type="submit" disabled={busy}>
              Add user
            </button>
          </form>
        </section>
      ) : null}
    </>
  );
}

function Sessions() {
  const [list, reload] = useLoad(() => api.GET('/api/v1/sessions', { params: { query: { limit: 200 } } }), []);
  const [error, busy, run] = useAction();
  return (
    <>
      <h2>Your sessions</h2>
      <ErrorMessage message={error} />
      <Show loaded={list} empty={(d) => d.sessions.length === 0}>
        {(d) => (
          <table aria-label="Sessions">
            <thead>
              <tr>
                <th scope="col">Signed in</th>
                <th scope="col">Last seen</th>
                <th scope="col">Browser</th>
                <th scope="col">Address</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {d.sessions.map((s) => (
                <tr key={s.id}>
                  <td>
                    {time(s.issuedAt)}
                    {s.current ? ' (this one)' : ''}
                  </td>
                  <td>{time(s.lastSeenAt)}</td>
                  <td>{s.userAgent ?? '—'}</td>
                  <td>{s.address ?? '—'}</td>
                  <td>
                    {s.current ? null : (
                      <ConfirmButton
                        label={`End session of ${time(s.issuedAt)}`}
                        consequence="Whoever uses that session is signed out at once."
                        confirm="End the session"
                        disabled={busy}
                        onConfirm={() =>
                          void run(() =>
                            api.DELETE('/api/v1/sessions/{session}', {
                              params: { path: { session: s.id }, header: { 'X-Svc-Organization': currentOrganization() ?? '' } },
                            }),
                          ).then(reload)
                        }
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
    </>
  );
}

function ApiTokens() {
  const can = useCan();
  const write = can('api-tokens:write');
  const [list, reload] = useLoad(() => api.GET('/api/v1/api-tokens', { params: { query: { limit: 200 } } }), []);
  const [form, setForm] = useState({ name: '', role: 'viewer' as Role, days: '30' });
  const [token, setToken] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  const create = async (event: FormEvent) => {
    event.preventDefault();
    let value: string | undefined;
    const expiresAt = new Date(Date.now() + Number(form.days) * 86_400_000).toISOString();
    if (
      await run(async () => {
        const answer = await api.POST('/api/v1/api-tokens', { body: { name: form.name, role: form.role, expiresAt } });
        value = answer.data?.token;
        return answer;
      })
    ) {
      setToken(value ?? null);
      reload();
    }
  };
  return (
    <>
      <h2>API tokens</h2>
      {token ? <ShownOnce label="API token" value={token} /> : null}
      <ErrorMessage message={error} />
      <Show loaded={list} empty={(d) => d.items.length === 0}>
        {(d) => (
          <table aria-label="API tokens">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                {write ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {d.items.map((t) => (
                <tr key={t.id}>
                  <td>{t.name}</td>
                  <td>{t.role}</td>
                  <td>{t.revokedAt ? `revoked ${time(t.revokedAt)}` : time(t.expiresAt)}</td>
                  <td>{time(t.lastUsedAt)}</td>
                  {write ? (
                    <td>
                      {t.revokedAt ? null : (
                        <ConfirmButton
                          label={`Revoke ${t.name}`}
                          consequence={`Every request with the token ${t.name} is refused from now on. This cannot be undone.`}
                          confirm="Revoke the token"
                          disabled={busy}
                          onConfirm={() => void run(() => api.DELETE('/api/v1/api-tokens/{id}', { params: { path: { id: t.id } } })).then(reload)}
                        />
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
      {write ? (
        <form className="inline" onSubmit={create} aria-label="New API token">
          <label>
            Token name
            <input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} required maxLength={128} />
          </label>
          <label>
            Role
            <select value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as Role })}>
              {ROLES.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
          </label>
          <label>
            Valid for (days)
            <input type="number" min={1} max={365} value={form.days} onChange={(e) => setForm({ ...form, days: e.target.value })} required />
          </label>
          <button type="submit" disabled={busy}>
            Create token
          </button>
        </form>
      ) : null}
    </>
  );
}

function Policy() {
  const can = useCan();
  const [policy, reload] = useLoad(() => api.GET('/api/v1/policy'), []);
  const [text, setText] = useState<string | null>(null);
  const [error, busy, run] = useAction();
  const save = async (event: FormEvent) => {
    event.preventDefault();
    let body: Schemas['PolicyDto'];
    try {
      body = JSON.parse(text ?? '') as Schemas['PolicyDto'];
    } catch {
      await run(async () => ({ error: { error: 'The policy is not valid JSON' }, response: new Response(null, { status: 400 }) }));
      return;
    }
    if (await run(() => api.PUT('/api/v1/policy', { body }))) {
      setText(null);
      reload();
    }
  };
  return (
    <>
      <h2>Policy</h2>
      <ErrorMessage message={error} />
      <Show loaded={policy}>
        {(p) =>
          can('policy:write') ? (
            <form onSubmit={save}>
              <label>
                Policy document (JSON; every field is required)
                <textarea rows={18} value={text ?? JSON.stringify(p, null, 2)} onChange={(e) => setText(e.target.value)} />
              </label>
              <button type="submit" disabled={busy}>
                Save policy
              </button>
            </form>
          ) : (
            <pre>{JSON.stringify(p, null, 2)}</pre>
          )
        }
      </Show>
    </>
  );
}

function Relays() {
  const can = useCan();
  const [list] = useLoad(() => api.GET('/api/v1/relays', { params: { query: { limit: 200 } } }), [], 10_000);
  const [name, setName] = useState('');
  const [token, setToken] = useState<Schemas['CreatedBootstrapTokenView'] | null>(null);
  const [error, busy, run] = useAction();
  const create = async (event: FormEvent) => {
    event.preventDefault();
    let created: Schemas['CreatedBootstrapTokenView'] | undefined;
    if (
      await run(async () => {
        const answer = await api.POST('/api/v1/relays/bootstrap-tokens', { body: { name, expiresInSeconds: 3600 } });
        created = answer.data;
        return answer;
      })
    )
      setToken(created ?? null);
  };
  return (
    <>
      <h2>Relays</h2>
      {token ? (
        <ShownOnce label="Relay bootstrap token" value={token.token}>
          <p>
            For the relay {token.name}, valid until {time(token.expiresAt)}.
          </p>
        </ShownOnce>
      ) : null}
      <ErrorMessage message={error} />
      <Show loaded={list} empty={(d) => d.items.length === 0}>
        {(d) => (
          <table aria-label="Relays">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">State</th>
                <th scope="col">Version</th>
                <th scope="col">Last seen</th>
              </tr>
            </thead>
            <tbody>
              {d.items.map((r) => (
                <tr key={r.id}>
                  <td>{r.name}</td>
                  <td>
                    <Status value={r.state} />
                  </td>
                  <td>{r.version ?? '—'}</td>
                  <td>{time(r.lastSeenAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Show>
      {can('relays:write') ? (
        <form className="inline" onSubmit={create} aria-label="New relay bootstrap token">
          <label>
            Relay name
            <input value={name} onChange={(e) => setName(e.target.value)} required />
          </label>
          <button type="submit" disabled={busy}>
            Create bootstrap token
          </button>
        </form>
      ) : null}
    </>
  );
}

function Deliveries() {
  const can = useCan();
  const cursor = useCursor();
  const [list, reload] = useLoad(() => api.GET('/api/v1/webhook-deliveries', { params: { query: { limit: PAGE_SIZE, cursor } } }), [cursor]);
  const [error, busy, run] = useAction();
  return (
    <>
      <h2>Webhook deliveries</h2>
      <ErrorMessage message={error} />
      <Show loaded={list} empty={(d) => d.items.length === 0}>
        {(d) => (
          <>
            <table aria-label="Webhook deliveries">
              <thead>
                <tr>
                  <th scope="col">Received</th>
                  <th scope="col">Answer</th>
                  <th scope="col">Accepted</th>
                  <th scope="col">Incidents</th>
                  {can('webhook-deliveries:replay') ? <th scope="col">Actions</th> : null}
                </tr>
              </thead>
              <tbody>
                {d.items.map((w) => (
                  <tr key={w.id}>
                    <td>
                      {time(w.receivedAt)}
                      {w.replayOf ? ' (replay)' : ''}
                    </td>
                    <td>
                      {w.statusCode}
                      {w.error ? `: ${w.error}` : ''}
                    </td>
                    <td>
                      {w.accepted} new, {w.duplicates} duplicate
                    </td>
                    <td>
                      {w.incidentIds.map((id) => (
                        <Link key={id} to={`/incidents/${id}`} style={{ marginRight: 8 }}>
                          {id.slice(-8)}
                        </Link>
                      ))}
                    </td>
                    {can('webhook-deliveries:replay') ? (
                      <td>
                        <button
                          type="button"
                          className="secondary"
                          disabled={busy}
                          onClick={() =>
                            void run(() => api.POST('/api/v1/webhook-deliveries/{delivery}/replay', { params: { path: { delivery: w.id } } })).then(reload)
                          }
                        >
                          Replay delivery of {time(w.receivedAt)}
                        </button>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager next={d.next} shown={d.items.length} size={PAGE_SIZE} noun="Deliveries" />
          </>
        )}
      </Show>
    </>
  );
}

function Audit() {
  const { organization } = useSession();
  // The filters and the page are in the URL; times are read in the zone chosen.
  const { query: search } = useLocation();
  const cursor = useCursor();
  const query = Object.fromEntries(['action', 'outcome', 'from', 'until'].flatMap((k) => (search.get(k) ? [[k, search.get(k)!]] : []))) as Record<
    string,
    string
  >;
  const [action, setAction] = useState(query.action ?? '');
  const [list] = useLoad(() => api.GET('/api/v1/audit-events', { params: { query: { ...query, cursor, limit: PAGE_SIZE } } }), [JSON.stringify(query), cursor]);
  const zone = zoneLabel();
  const exportHref = (format: string) => `${organizationPath('/api/v1/audit-events/export')}?${new URLSearchParams({ ...query, format })}`;
  return (
    <>
      <h2>Audit events</h2>
      <form className="inline" aria-label="Filter audit events" onSubmit={(e) => e.preventDefault()}>
        <label>
          Action
          <input
            value={action}
            onChange={(e) => setAction(e.target.value)}
            onBlur={() => updateQuery({ action: action.trim() })}
            onKeyDown={(e) => (e.key === 'Enter' ? updateQuery({ action: action.trim() }) : undefined)}
            placeholder="e.g. integration.create"
          />
        </label>
        <label>
          Outcome
          <select value={query.outcome ?? ''} onChange={(e) => updateQuery({ outcome: e.target.value })}>
            <option value="">Any</option>
            <option value="allowed">allowed</option>
            <option value="denied">denied</option>
            <option value="failed">failed</option>
          </select>
        </label>
        <label>
          From ({zone})
          <input type="datetime-local" value={toInput(query.from)} onChange={(e) => updateQuery({ from: fromInput(e.target.value) })} />
        </label>
        <label>
          Before ({zone})
          <input type="datetime-local" value={toInput(query.until)} onChange={(e) => updateQuery({ until: fromInput(e.target.value) })} />
        </label>
      </form>
      <p>
        Export these events:{' '}
        <a href={exportHref('ndjson')} download={`audit-${organization?.id}.ndjson`}>
          NDJSON
        </a>{' '}
        ·{' '}
        <a href={exportHref('csv')} download={`audit-${organization?.id}.csv`}>
          CSV
        </a>
      </p>
      <Show loaded={list} empty={(d) => d.events.length === 0}>
        {(d) => (
          <>
            <table aria-label="Audit events">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">Action</th>
                  <th scope="col">Target</th>
                  <th scope="col">Outcome</th>
                </tr>
              </thead>
              <tbody>
                {d.events.map((e) => (
                  <tr key={e.id}>
                    <td>{time(e.occurredAt)}</td>
                    <td>{e.actorName ?? e.actorKind}</td>
                    <td>{e.action}</td>
                    <td>
                      {e.targetKind} {e.targetId}
                    </td>
                    <td>{e.outcome}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager next={d.next} shown={d.events.length} size={PAGE_SIZE} noun="Events" />
          </>
        )}
      </Show>
    </>
  );
}
