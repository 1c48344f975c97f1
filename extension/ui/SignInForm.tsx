import { useState } from 'react';
import { ApiError } from '../../shared/api/client';
import { MSG } from '../../shared/domain/messages';
import { SignInFields } from '../../shared/ui/SignInFields';
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(credentials: { email: string; password: string }) {
    setBusy(true);
    setError(null);
    try {
      await api.signIn(credentials);
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
      <SignInFields idPrefix="sign-in" busy={busy} error={error} onSubmit={(credentials) => void submit(credentials)} />
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
