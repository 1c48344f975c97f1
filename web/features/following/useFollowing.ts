import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { ApiError } from '../../../shared/api/client';
import { SUBSCRIPTION_MESSAGES, type SubscriptionState, type UserProfile } from '../../../shared/domain';
import { api } from '../../lib/api';
import { queryKeys } from '../../../shared/queries/keys';
import { cursorPaging } from '../../lib/paging';

/** A signed-in user's own subscribers (under ['users', id] so signing out drops them with the rest). */
export const subscribersKey = (userId: string) => [...queryKeys.user(userId), 'subscribers'] as const;

/** The server's message for a refusal it explains (401, 404 ...), the spec's text for anything else. */
function failureText(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.status >= 400 && err.status < 500 ? err.message : fallback;
}

/**
 * Subscribe / Unsubscribe on a profile. Both counters come back from the server and go into the
 * cached profile and the session, so every count on screen agrees. Failures show the spec's toasts.
 */
export function useSubscriptionToggle(publisherId: string, viewerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subscribe: boolean) => (subscribe ? api.subscribe(publisherId) : api.unsubscribe(publisherId)),
    onSuccess: (state: SubscriptionState) => {
      queryClient.setQueryData<UserProfile>(queryKeys.user(publisherId), (prev) =>
        prev ? { ...prev, isSubscribed: state.isSubscribed, subscribersCount: state.subscribersCount } : prev,
      );
      const mine = (prev: UserProfile | null | undefined) =>
        prev ? { ...prev, subscriptionsCount: state.subscriptionsCount } : prev;
      queryClient.setQueryData<UserProfile | null>(queryKeys.session, mine);
      queryClient.setQueryData<UserProfile>(queryKeys.user(viewerId), (prev) => mine(prev) ?? undefined);
    },
    onError: (err, subscribe) =>
      toast.error(
        failureText(err, subscribe ? SUBSCRIPTION_MESSAGES.subscribeFailed : SUBSCRIPTION_MESSAGES.unsubscribeFailed),
      ),
  });
}

/** The Subscriber Dashboard's list: pages of 50, newest first, with the total count. */
export function useSubscribers(userId: string) {
  return useInfiniteQuery({
    queryKey: subscribersKey(userId),
    queryFn: ({ pageParam, signal }) => api.listSubscribers(pageParam, signal),
    ...cursorPaging,
    // Subscribers arrive while the page is open elsewhere: refetch when the dashboard is opened again.
    staleTime: 0,
  });
}
