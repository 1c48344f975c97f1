import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { MSG } from '../../../shared/domain';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../shared/ui/primitives/card';
import { SignInFields } from '../../../shared/ui/SignInFields';
import { api, messageOf } from '../../lib/api';
import { useEnterApp } from '../../entities/session/useSession';

export function LoginForm() {
  const enterApp = useEnterApp();
  const signIn = useMutation({
    mutationFn: (credentials: { email: string; password: string }) => api.signIn(credentials),
    onSuccess: enterApp,
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Welcome back</CardTitle>
        <CardDescription>Enter your email and password to continue.</CardDescription>
      </CardHeader>
      <CardContent>
        <SignInFields
          idPrefix="login"
          busy={signIn.isPending}
          error={signIn.error && messageOf(signIn.error, MSG.signInFailed)}
          onSubmit={(credentials) => signIn.mutate(credentials)}
        />
        <p className="mt-4 text-center text-sm">
          <Link to="/forgot-password" className="font-medium text-primary underline-offset-4 hover:underline">
            Forgot password?
          </Link>
        </p>
        <p className="mt-4 text-center text-sm text-muted-foreground">
          <span>{"Don't have an account?"}</span>{' '}
          <Link to="/register" className="font-medium text-primary underline-offset-4 hover:underline">
            Create new account
          </Link>
        </p>
      </CardContent>
    </Card>
  );
}
