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
import { api, messageOf } from '../../lib/api';
import { useEnterApp } from './useSession';

export function RegisterForm() {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const enterApp = useEnterApp();
  const signUp = useMutation({
    mutationFn: (input: RegisterInput) => api.signUp(input),
    onSuccess: enterApp,
  });
  const canSubmit = name.trim() !== '' && email.trim() !== '' && password !== '' && !signUp.isPending;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit) return;
    const parsed = registerSchema.safeParse({ name, email, password });
    setInvalid(parsed.success ? null : (parsed.error.issues[0]?.message ?? MSG.signUpFailed));
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
              aria-describedby="register-password-hint"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <p id="register-password-hint" className="text-xs text-muted-foreground">
              At least {PASSWORD_MIN_LENGTH} characters
            </p>
          </div>
          <FormError message={invalid ?? (signUp.error && messageOf(signUp.error, MSG.signUpFailed))} />
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
