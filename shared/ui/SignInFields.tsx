import { useState, type FormEvent } from 'react';
import { Button } from './primitives/button';
import { FormError } from './primitives/form-error';
import { Input } from './primitives/input';
import { Label } from './primitives/label';

interface SignInFieldsProps {
  /** Prefix of the inputs' ids, unique on the page. */
  idPrefix: string;
  busy: boolean;
  error: string | null | undefined;
  onSubmit: (credentials: { email: string; password: string }) => void;
}

/**
 * SPEC §2/§5 Login form, shared by the web app and the extension's popup: e-mail and password
 * (both required), 'Sign in' / 'Signing in...', disabled while either trimmed field is empty.
 */
export function SignInFields({ idPrefix, busy, error, onSubmit }: SignInFieldsProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const canSubmit = email.trim() !== '' && password.trim() !== '' && !busy;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (canSubmit) onSubmit({ email: email.trim(), password });
  }

  return (
    <form onSubmit={submit} className="grid gap-4" aria-label="Sign in">
      <div className="grid gap-2">
        <Label htmlFor={`${idPrefix}-email`}>Email</Label>
        <Input
          id={`${idPrefix}-email`}
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${idPrefix}-password`}>Password</Label>
        <Input
          id={`${idPrefix}-password`}
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
  );
}
