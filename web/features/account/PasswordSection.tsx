import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ACCOUNT_MESSAGES, MSG, PASSWORD_MAX_LENGTH, newPasswordSchema } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { FormError } from '../../../shared/ui/primitives/form-error';
import { Input } from '../../../shared/ui/primitives/input';
import { Label } from '../../../shared/ui/primitives/label';
import { api } from '../../lib/api';
import { accountKeys } from './keys';
import { NewPasswordField } from './NewPasswordField';
import { problemOf } from './problems';
import { Done, SettingsCard } from './SettingsCard';

/** Change password with the current one: my other sessions end, this one stays. */
export function PasswordSection() {
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const change = useMutation({
    mutationFn: () => api.changePassword(current, next),
    onSuccess: () => {
      setCurrent('');
      setNext('');
      void queryClient.invalidateQueries({ queryKey: accountKeys.sessions });
    },
  });
  const problem = invalid ? { message: invalid, onField: true } : problemOf(change.error, MSG.authFailed, 'newPassword');

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = newPasswordSchema.safeParse(next);
    setInvalid(parsed.success ? null : (parsed.error.issues[0]?.message ?? MSG.authFailed));
    if (parsed.success) change.mutate();
  }

  return (
    <SettingsCard id="account-password" title="Password" description="Changing it signs out your other sessions; this one stays signed in.">
      <form onSubmit={onSubmit} className="grid gap-4 sm:max-w-md" noValidate>
        <div className="grid gap-2">
          <Label htmlFor="account-current-password">Current password</Label>
          <Input
            id="account-current-password"
            type="password"
            autoComplete="current-password"
            required
            maxLength={PASSWORD_MAX_LENGTH}
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
        </div>
        <NewPasswordField id="account-new-password" label="New password" value={next} onChange={setNext} problem={problem?.onField ? problem.message : null} />
        <FormError message={problem && !problem.onField ? problem.message : null} />
        <Done message={change.isSuccess ? ACCOUNT_MESSAGES.passwordChanged : null} />
        <div>
          <Button type="submit" disabled={current === '' || next === '' || change.isPending}>
            {change.isPending ? 'Changing password...' : 'Change password'}
          </Button>
        </div>
      </form>
    </SettingsCard>
  );
}
