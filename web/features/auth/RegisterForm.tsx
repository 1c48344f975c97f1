import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  MSG,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  registerSchema,
  type RegisterInput,
} from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../shared/ui/primitives/card';
import { FormError } from '../../../shared/ui/primitives/form-error';
import { Input } from '../../../shared/ui/primitives/input';
import { Label } from '../../../shared/ui/primitives/label';
import { ApiError } from '../../../shared/api/client';
import { api, messageOf } from '../../lib/api';
import { useEnterApp } from '../../entities/session/useSession';

interface Problem {
  /** The field it concerns, when the schema (ours or the server's) names one. */
  field?: string;
  message: string;
}

/** The server's first validation issue names its field (server/http/errors.ts zodErrorBody). */
function serverProblem(error: Error): Problem {
  const issues = error instanceof ApiError ? error.details.issues : undefined;
  const field = Array.isArray(issues) ? (issues[0] as { path?: unknown } | undefined)?.path : undefined;
  return { field: typeof field === 'string' ? field : undefined, message: messageOf(error, MSG.signUpFailed) };
}

export function RegisterForm() {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [invalid, setInvalid] = useState<Problem | null>(null);
  const enterApp = useEnterApp();
  const signUp = useMutation({
    mutationFn: (input: RegisterInput) => api.signUp(input),
    onSuccess: enterApp,
  });
  const canSubmit = name.trim() !== '' && email.trim() !== '' && password !== '' && !signUp.isPending;
  const problem = invalid ?? (signUp.error && serverProblem(signUp.error));
  // Why a password is refused shows under its field (the server alone knows the common passwords).
  const passwordProblem = problem?.field === 'password' ? problem.message : null;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit) return;
    const parsed = registerSchema.safeParse({ name, email, password });
    const issue = parsed.error?.issues[0];
    setInvalid(parsed.success ? null : { field: issue?.path[0]?.toString(), message: issue?.message ?? MSG.signUpFailed });
    if (parsed.success) signUp.mutate(parsed.data);
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Create your account</CardTitle>
        <CardDescription>Start curating the best of the internet.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor="register-name">Full name</Label>
            <Input
              id="register-name"
              autoComplete="name"
              required
              maxLength={NAME_MAX_LENGTH}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="register-email">Email</Label>
            <Input
              id="register-email"
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="register-password">Password</Label>
            <Input
              id="register-password"
              type="password"
              autoComplete="new-password"
              required
              minLength={PASSWORD_MIN_LENGTH}
              maxLength={PASSWORD_MAX_LENGTH}
              aria-describedby={passwordProblem ? 'register-password-hint register-password-error' : 'register-password-hint'}
              aria-invalid={passwordProblem ? true : undefined}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <p id="register-password-hint" className="text-xs text-muted-foreground">
              At least {PASSWORD_MIN_LENGTH} characters, and not a commonly used password
            </p>
            {passwordProblem && (
              <p id="register-password-error" role="alert" className="text-sm text-destructive">
                {passwordProblem}
              </p>
            )}
          </div>
          <FormError message={passwordProblem ? null : problem?.message} />
          <Button type="submit" className="w-full" disabled={!canSubmit}>
            {signUp.isPending ? 'Creating account...' : 'Create account'}
          </Button>
        </form>
        <p className="mt-6 text-center text-sm text-muted-foreground">
          <span>Already have an account?</span>{' '}
          <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
            Sign in
          </Link>
        </p>
      </CardContent>
    </Card>
  );
}
