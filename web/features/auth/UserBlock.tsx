import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LogOut, Settings } from 'lucide-react';
import toast from 'react-hot-toast';
import { Link, useNavigate } from 'react-router';
import { handleOf, MSG, type UserProfile } from '../../../shared/domain';
import { Avatar } from '../../../shared/ui/primitives/avatar';
import { Button } from '../../../shared/ui/primitives/button';
import { api } from '../../lib/api';
import { queryKeys } from '../../../shared/queries/keys';
import { useEditProfileDialog } from './useEditProfileDialog';

/** Avatar, name and handle of the signed-in user (opens Edit profile) and the sign-out button. */
export function UserBlock({ user }: { user: UserProfile }) {
  const openEditProfile = useEditProfileDialog((s) => s.setOpen);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const signOut = useMutation({
    mutationFn: api.signOut,
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: ['users'] });
      queryClient.setQueryData(queryKeys.session, null);
      navigate('/login', { replace: true });
    },
    onError: () => toast.error(MSG.signOutFailed),
  });
  const handle = user.email ? `@${handleOf(user.email)}` : null;

  return (
    <div className="flex items-center gap-1 border-t p-3">
      <button
        type="button"
        onClick={() => openEditProfile(true)}
        aria-label={`Edit profile: ${user.name}${handle ? ` (${handle})` : ''}`}
        className="flex min-w-0 flex-1 items-center gap-3 rounded-lg p-2 text-left transition-colors outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring"
      >
        <Avatar src={user.avatarUrl} className="size-9" />
        <span className="min-w-0">
          <span className="block truncate text-sm font-medium">{user.name}</span>
          {handle && <span className="block truncate text-xs text-muted-foreground">{handle}</span>}
        </span>
      </button>
      <Button variant="ghost" size="icon" asChild>
        <Link to="/settings" aria-label="Settings" title="Settings">
          <Settings aria-hidden="true" />
        </Link>
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label="Sign out"
        title="Sign out"
        disabled={signOut.isPending}
        onClick={() => signOut.mutate()}
      >
        <LogOut aria-hidden="true" />
      </Button>
    </div>
  );
}
