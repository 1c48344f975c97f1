import { useState, type FormEvent } from 'react';
import { ApiError } from '../../shared/api/client';
import { MSG } from '../../shared/domain/messages';
import { Button } from '../../shared/ui/primitives/button';
import { FormError } from '../../shared/ui/primitives/form-error';
import { Input } from '../../shared/ui/primitives/input';
import { Label } from '../../shared/ui/primitives/label';
import type { ApiClient } from '../lib/api';
import { unreachable } from '../lib/api';

interface SignInFormProps {
  api: ApiClient;
  serverUrl: string;
  /** Shown above the form, e.g. 'Your session has expired. Please sign in again.' */
  notice?: string | null;
  onSignedIn: () => void;
}

/** SPEC §2 Login, in the popup: texts and errors come from the server ('Invalid email or password'). */
export function SignInForm({ api, serverUrl, notice, onSignedIn }: SignInFormProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const canSubmit = email.trim() !== '' && password.trim() !== '' && !busy;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit) return;
    setBusy(true);
    setError(null);
    try {
      await api.signIn({ email: email.trim(), password });
      onSignedIn();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'NETWORK_ERROR') setError(unreachable(serverUrl));
      else setError(err instanceof ApiError ? err.message : MSG.signInFailed);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="sign-in-title" className="grid gap-4">
      <div className="grid gap-1">
        <h1 id="sign-in-title" className="text-lg font-semibold">
          Sign in to Supercurate
        </h1>
        <p className="text-sm text-muted-foreground">
          Your server: <span className="font-medium text-foreground">{serverUrl}</span>
        </p>
      </div>
      {notice && (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {notice}
        </p>
      )}
      <form onSubmit={(e) => void submit(e)} className="grid gap-4" aria-label="Sign in">
        <div className="grid gap-2">
          <Label htmlFor="sign-in-email">Email</Label>
          <Input
            id="sign-in-email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="sign-in-password">Password</Label>
          <Input
            id="sign-in-password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <FormError message={error} />
        <Button type="submit" className="w-full" disabled={!canSubmit}>
          {busy ? 'Signing in...' : 'Sign in'}
        </Button>
      </form>
      <p className="text-center text-sm text-muted-foreground">
        <span>{"Don't have an account?"}</span>{' '}
        <a
          href={`${serverUrl}/register`}
          target="_blank"
          rel="noreferrer"
          className="font-medium text-primary underline-offset-4 hover:underline"
        >
          Create new account
        </a>
      </p>
    </section>
  );
}
