import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { AUTH_INIT_TIMEOUT_MS, MSG, type UserProfile } from '../../../shared/domain';
import { api } from '../../lib/api';
import { queryKeys } from '../../../shared/queries/keys';

/**
 * The current session: `user` is undefined until the first answer, then the profile or null.
 * Initialisation gives up after AUTH_INIT_TIMEOUT_MS with 'Authentication timed out'.
 */
export function useSession() {
  const query = useQuery({
    queryKey: queryKeys.session,
    queryFn: ({ signal }) => api.me(AbortSignal.any([signal, AbortSignal.timeout(AUTH_INIT_TIMEOUT_MS)])),
    staleTime: 5 * 60_000,
    retry: false,
  });
  const error = query.error && (query.error.name === 'TimeoutError' ? MSG.authTimedOut : MSG.authInitFailed);
  return { user: query.data, isPending: query.isPending, error, retry: () => void query.refetch() };
}

/** Puts a fresh profile of the signed-in user into every cache that shows it. */
export function useUpdateSessionUser() {
  const queryClient = useQueryClient();
  return (updated: UserProfile) => {
    // The e-mail is only in some answers: keep the one we know.
    queryClient.setQueryData<UserProfile | null>(queryKeys.session, (prev) => (prev ? { ...prev, ...updated } : prev));
    queryClient.setQueryData<UserProfile>(queryKeys.user(updated.id), (prev) => (prev ? { ...prev, ...updated } : updated));
  };
}

/** After signing in or up: reload the session, then go to the post-login page. */
export function useEnterApp() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: queryKeys.session });
    navigate('/home', { replace: true });
  };
}
