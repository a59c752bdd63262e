import { type FormEvent, useState } from 'react';
import { api, errorText } from '../api/client';
import { ErrorMessage, Show, useLoad, useTitle } from '../ui';

/** Local sign-in, and the OIDC provider's when the deployment configures one. */
export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [meta] = useLoad(() => api.GET('/api/v1/meta'), []);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      const { error, response } = await api.POST('/api/v1/auth/local/sign-in', { body: { email, password } });
      if (error !== undefined || !response.ok) setMessage(errorText(error, response));
      else onSignedIn();
    } catch (error) {
      setMessage(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  useTitle('Sign in');
  const returnTo = location.pathname === '/sign-in' ? '/' : `${location.pathname}${location.search}`;
  return (
    <main className="sign-in">
      <h1>Sign in</h1>
      <form onSubmit={submit}>
        <label>
          Email
          <input type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          Password
          <input type="password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <ErrorMessage message={message} />
      </form>
      <Show loaded={meta}>
        {(m) =>
          m.authentication.oidc ? (
            <p>
              <a className="button" href={`/api/v1/auth/oidc/start?returnTo=${encodeURIComponent(returnTo)}`}>
                Sign in with your identity provider
              </a>
            </p>
          ) : null
        }
      </Show>
    </main>
  );
}
