import { useMutation } from '@tanstack/react-query';
import { CircleCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { ACCOUNT_MESSAGES, newPasswordSchema } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../shared/ui/primitives/card';
import { FormError } from '../../../shared/ui/primitives/form-error';
import { api } from '../../lib/api';
import { NewPasswordField } from './NewPasswordField';
import { problemOf } from './problems';

const linkClass = 'font-medium text-primary underline-offset-4 hover:underline';

/** The page the reset e-mail links to: a new password for the token of the link. */
export function ResetPasswordForm({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const reset = useMutation({ mutationFn: (newPassword: string) => api.resetPassword(token, newPassword) });
  const problem = invalid ? { message: invalid, onField: true } : problemOf(reset.error, ACCOUNT_MESSAGES.resetFailed, 'newPassword');

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = newPasswordSchema.safeParse(password);
    setInvalid(parsed.success ? null : (parsed.error.issues[0]?.message ?? ACCOUNT_MESSAGES.resetFailed));
    if (parsed.success) reset.mutate(parsed.data);
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Choose a new password</CardTitle>
        <CardDescription>Setting it signs out every session of your account.</CardDescription>
      </CardHeader>
      <CardContent>
        {reset.isSuccess ? (
          <div className="grid gap-4">
            <p role="status" className="flex items-start gap-2 rounded-md border bg-accent/40 px-3 py-3 text-sm">
              <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              {ACCOUNT_MESSAGES.resetDone}
            </p>
            <Button asChild className="w-full">
              <Link to="/login">Sign in</Link>
            </Button>
          </div>
        ) : !token ? (
          <FormError message={ACCOUNT_MESSAGES.resetInvalid} />
        ) : (
          <form onSubmit={onSubmit} className="grid gap-4" noValidate>
            <NewPasswordField
              id="reset-password"
              label="New password"
              value={password}
              onChange={setPassword}
              problem={problem?.onField ? problem.message : null}
            />
            <FormError message={problem && !problem.onField ? problem.message : null} />
            <Button type="submit" className="w-full" disabled={password === '' || reset.isPending}>
              {reset.isPending ? 'Saving...' : 'Set new password'}
            </Button>
          </form>
        )}
        <p className="mt-6 text-center text-sm text-muted-foreground">
          <Link to="/forgot-password" className={linkClass}>
            Ask for a new link
          </Link>
        </p>
      </CardContent>
    </Card>
  );
}
