import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Monitor } from 'lucide-react';
import { useNavigate } from 'react-router';
import { ACCOUNT_MESSAGES, type AccountSession, deviceOf } from '../../../shared/domain';
import { Button } from '../../../shared/ui/primitives/button';
import { FormError } from '../../../shared/ui/primitives/form-error';
import { Loading } from '../../components/Loading';
import { api, messageOf } from '../../lib/api';
import { fullDateTime, relativeTime } from '../../lib/dates';
import { queryKeys } from '../../../shared/queries/keys';
import { accountKeys } from './keys';
import { SettingsCard } from './SettingsCard';
import { SectionLoadFailed } from '../../components/LoadStates';

/** My sessions (device, approximate time, this one marked), each with "Sign out", and "Sign out all other sessions". */
export function SessionsSection() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const sessions = useQuery({ queryKey: accountKeys.sessions, queryFn: ({ signal }) => api.listSessions(signal) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions });
  const revoke = useMutation({
    mutationFn: (session: AccountSession) => api.revokeSession(session.token),
    onSuccess: (_data, session) => {
      if (!session.current) return refresh();
      queryClient.setQueryData(queryKeys.session, null);
      navigate('/login', { replace: true });
    },
  });
  const revokeOthers = useMutation({ mutationFn: api.revokeOtherSessions, onSuccess: refresh });
  const list = [...(sessions.data ?? [])].sort((a, b) => Number(b.current) - Number(a.current) || b.updatedAt.localeCompare(a.updatedAt));
  const others = list.filter((s) => !s.current).length;

  return (
    <SettingsCard id="account-sessions" title="Sessions" description="Where your account is signed in.">
      {sessions.isPending ? (
        <Loading />
      ) : sessions.isError ? (
        <SectionLoadFailed message={messageOf(sessions.error, ACCOUNT_MESSAGES.sessionsFailed)} onRetry={() => void sessions.refetch()} />
      ) : list.length === 0 ? (
        <p className="text-sm text-muted-foreground">No active sessions.</p>
      ) : (
        <div className="grid gap-4">
          <ul aria-label="Sessions" className="divide-y rounded-lg border">
            {list.map((session) => {
              const device = deviceOf(session.userAgent);
              return (
                <li key={session.id} className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center">
                  <Monitor aria-hidden="true" className="hidden size-5 shrink-0 text-muted-foreground sm:block" />
                  <div className="min-w-0 flex-1">
                    <p className="text-sm font-medium">
                      {device}
                      {session.current && (
                        <span className="ml-2 rounded-full bg-accent px-2 py-0.5 text-xs font-medium text-accent-foreground">This device</span>
                      )}
                    </p>
                    <p className="text-xs text-muted-foreground">
                      Signed in <time dateTime={session.createdAt} title={fullDateTime(session.createdAt)}>{relativeTime(session.createdAt)}</time>
                      {' · '}last active <time dateTime={session.updatedAt} title={fullDateTime(session.updatedAt)}>{relativeTime(session.updatedAt)}</time>
                    </p>
                  </div>
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={`Sign out ${device}${session.current ? ' (this device)' : ''}`}
                    disabled={revoke.isPending}
                    onClick={() => revoke.mutate(session)}
                  >
                    Sign out
                  </Button>
                </li>
              );
            })}
          </ul>
          <FormError message={(revoke.error ?? revokeOthers.error) && messageOf(revoke.error ?? revokeOthers.error, ACCOUNT_MESSAGES.signOutSessionFailed)} />
          <div>
            <Button variant="outline" disabled={others === 0 || revokeOthers.isPending} onClick={() => revokeOthers.mutate()}>
              {revokeOthers.isPending ? 'Signing out...' : 'Sign out all other sessions'}
            </Button>
          </div>
        </div>
      )}
    </SettingsCard>
  );
}
