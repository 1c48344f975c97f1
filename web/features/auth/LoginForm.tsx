import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { MSG } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../shared/ui/primitives/card';
import { FormError } from '../../../shared/ui/primitives/form-error';
import { Input } from '../../../shared/ui/primitives/input';
import { Label } from '../../../shared/ui/primitives/label';
import { api, messageOf } from '../../lib/api';
import { useEnterApp } from './useSession';

export function LoginForm() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const enterApp = useEnterApp();
  const signIn = useMutation({
    mutationFn: () => api.signIn({ email: email.trim(), password }),
    onSuccess: enterApp,
  });
  const canSubmit = email.trim() !== '' && password.trim() !== '' && !signIn.isPending;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (canSubmit) signIn.mutate();
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Welcome back</CardTitle>
        <CardDescription>Enter your email and password to continue.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor="login-email">Email</Label>
            <Input
              id="login-email"
              type="email"
              autoComplete="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="login-password">Password</Label>
            <Input
              id="login-password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
          <FormError message={signIn.error && messageOf(signIn.error, MSG.signInFailed)} />
          <Button type="submit" className="w-full" disabled={!canSubmit}>
            {signIn.isPending ? 'Signing in...' : 'Sign in'}
          </Button>
        </form>
        <p className="mt-6 text-center text-sm text-muted-foreground">
          <span>{"Don't have an account?"}</span>{' '}
          <Link to="/register" className="font-medium text-primary underline-offset-4 hover:underline">
            Create new account
          </Link>
        </p>
      </CardContent>
    </Card>
  );
}
