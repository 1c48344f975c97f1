import { useMutation } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { ACCOUNT_MESSAGES, MSG, forgotPasswordSchema } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../shared/ui/primitives/card';
import { FormError } from '../../../shared/ui/primitives/form-error';
import { Input } from '../../../shared/ui/primitives/input';
import { Label } from '../../../shared/ui/primitives/label';
import { api, messageOf } from '../../lib/api';

/** "Forgot password?": one answer whether or not an account uses the address. */
export function ForgotPasswordForm() {
  const [email, setEmail] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const request = useMutation({ mutationFn: (address: string) => api.requestPasswordReset(address) });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = forgotPasswordSchema.safeParse({ email });
    setInvalid(parsed.success ? null : (parsed.error.issues[0]?.message ?? MSG.emailInvalid));
    if (parsed.success) request.mutate(parsed.data.email);
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Reset your password</CardTitle>
        <CardDescription>Enter the e-mail address of your account and we will send you a link to choose a new password.</CardDescription>
      </CardHeader>
      <CardContent>
        {request.isSuccess ? (
          <p role="status" className="flex items-start gap-2 rounded-md border bg-accent/40 px-3 py-3 text-sm">
            <MailCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            {ACCOUNT_MESSAGES.resetRequested}
          </p>
        ) : (
          <form onSubmit={onSubmit} className="grid gap-4" noValidate>
            <div className="grid gap-2">
              <Label htmlFor="forgot-email">Email</Label>
              <Input
                id="forgot-email"
                type="email"
                autoComplete="email"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            </div>
            <FormError message={invalid ?? (request.error && messageOf(request.error, ACCOUNT_MESSAGES.resetFailed))} />
            <Button type="submit" className="w-full" disabled={email.trim() === '' || request.isPending}>
              {request.isPending ? 'Sending link...' : 'Send reset link'}
            </Button>
          </form>
        )}
        <p className="mt-6 text-center text-sm text-muted-foreground">
          <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
            Back to sign in
          </Link>
        </p>
      </CardContent>
    </Card>
  );
}
