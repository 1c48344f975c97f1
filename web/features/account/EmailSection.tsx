import { useMutation } from '@tanstack/react-query';
import { BadgeCheck, CircleAlert } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { ACCOUNT_MESSAGES, MSG, type UserProfile, emailSchema } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { FormError } from '../../../shared/ui/primitives/form-error';
import { Input } from '../../../shared/ui/primitives/input';
import { Label } from '../../../shared/ui/primitives/label';
import { api, messageOf } from '../../lib/api';
import { Done, SettingsCard } from './SettingsCard';

/** My address, whether it is verified (with a resend), and a change confirmed from the new address. */
export function EmailSection({ user }: { user: UserProfile }) {
  const [next, setNext] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const resend = useMutation({ mutationFn: () => api.resendVerification(user.email ?? '') });
  const change = useMutation({ mutationFn: (address: string) => api.changeEmail(address) });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = emailSchema.safeParse(next);
    const problem = !parsed.success ? (parsed.error.issues[0]?.message ?? MSG.emailInvalid) : parsed.data === user.email ? ACCOUNT_MESSAGES.sameEmail : null;
    setInvalid(problem);
    if (parsed.success && !problem) change.mutate(parsed.data);
  }

  return (
    <SettingsCard id="account-email" title="E-mail address">
      <div className="grid gap-4">
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <span className="font-medium break-all">{user.email}</span>
          {user.emailVerified ? (
            <span className="inline-flex items-center gap-1 text-emerald-700 dark:text-emerald-400">
              <BadgeCheck aria-hidden="true" className="size-4" /> Verified
            </span>
          ) : (
            <span className="inline-flex items-center gap-1 text-amber-700 dark:text-amber-400">
              <CircleAlert aria-hidden="true" className="size-4" /> Not verified yet
            </span>
          )}
        </p>
        {!user.emailVerified && (
          <div className="grid gap-2">
            <div>
              <Button variant="outline" disabled={resend.isPending || resend.isSuccess} onClick={() => resend.mutate()}>
                {resend.isPending ? 'Sending...' : 'Resend verification e-mail'}
              </Button>
            </div>
            <Done message={resend.isSuccess ? ACCOUNT_MESSAGES.verificationSent : null} />
            <FormError message={resend.error && messageOf(resend.error, ACCOUNT_MESSAGES.verificationFailed)} />
          </div>
        )}
        <form onSubmit={onSubmit} className="grid gap-2 sm:max-w-md" noValidate>
          <Label htmlFor="account-new-email">New e-mail address</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              id="account-new-email"
              type="email"
              autoComplete="email"
              value={next}
              onChange={(e) => setNext(e.target.value)}
              aria-describedby="account-new-email-hint"
            />
            <Button type="submit" variant="outline" disabled={next.trim() === '' || change.isPending} className="shrink-0">
              {change.isPending ? 'Sending link...' : 'Change e-mail'}
            </Button>
          </div>
          <p id="account-new-email-hint" className="text-xs text-muted-foreground">
            We send a link to the new address; the change takes effect when you open it.
          </p>
          <Done message={change.isSuccess ? ACCOUNT_MESSAGES.emailChangeSent : null} />
          <FormError message={invalid ?? (change.error && messageOf(change.error, ACCOUNT_MESSAGES.emailChangeFailed))} />
        </form>
      </div>
    </SettingsCard>
  );
}
