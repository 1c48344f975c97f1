import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { ACCOUNT_MESSAGES, PASSWORD_MAX_LENGTH, type UserProfile } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../shared/ui/primitives/dialog';
import { FormError } from '../../../shared/ui/primitives/form-error';
import { Input } from '../../../shared/ui/primitives/input';
import { Label } from '../../../shared/ui/primitives/label';
import { api, messageOf } from '../../lib/api';
import { queryKeys } from '../../../shared/queries/keys';
import { SettingsCard } from './SettingsCard';

/** Delete my account: confirmed with the password and by typing the e-mail address. */
export function DeleteAccountSection({ user }: { user: UserProfile }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [typed, setTyped] = useState('');
  const email = user.email ?? '';
  const remove = useMutation({
    mutationFn: () => api.deleteAccount(password, typed),
    onSuccess: () => {
      queryClient.clear();
      queryClient.setQueryData(queryKeys.session, null);
      toast.success('Your account is deleted');
      navigate('/', { replace: true });
    },
  });
  const matches = typed.trim().toLowerCase() === email.toLowerCase();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (matches && password !== '') remove.mutate();
  }

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      setPassword('');
      setTyped('');
      remove.reset();
    }
  }

  return (
    <SettingsCard
      id="account-delete"
      title="Delete account"
      description="Deletes your profile, links, likes, topics, subscriptions and sessions, and the collections you own with their e-mail subscribers. You leave the collections you collaborate on; they stay. This cannot be undone."
    >
      <Button variant="destructive" onClick={() => setOpen(true)}>
        Delete my account
      </Button>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete your account?</DialogTitle>
            <DialogDescription>Your account and everything described on this page go at once; this cannot be undone. Export your data first if you want to keep it.</DialogDescription>
          </DialogHeader>
          <form onSubmit={onSubmit} className="grid gap-4" noValidate>
            <div className="grid gap-2">
              <Label htmlFor="delete-password">Password</Label>
              <Input
                id="delete-password"
                type="password"
                autoComplete="current-password"
                maxLength={PASSWORD_MAX_LENGTH}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="delete-email">
                Type <span className="font-semibold break-all">{email}</span> to confirm
              </Label>
              <Input id="delete-email" type="email" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />
            </div>
            <FormError message={remove.error && messageOf(remove.error, ACCOUNT_MESSAGES.deleteFailed)} />
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
                Cancel
              </Button>
              <Button type="submit" variant="destructive" disabled={!matches || password === '' || remove.isPending}>
                {remove.isPending ? 'Deleting account...' : 'Delete account'}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </SettingsCard>
  );
}
