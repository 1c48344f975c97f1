import { useMutation, useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { ApiError } from '../../../shared/api/client';
import { type CreateLinkInput, type LikeState, type Link, LINK_HEALTH_MESSAGES, type UpdateLinkInput } from '../../../shared/domain';
import { api, messageOf } from '../../lib/api';
import { linkListFiltersOf, queryKeys } from '../../../shared/queries/keys';
import { patchLink, prependLink, refreshBrokenLinks, refreshCollections, removeLink } from './linkCache';

export function useCreateLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateLinkInput) => api.createLink(input),
    onSuccess: (link) => {
      prependLink(queryClient, link);
      refreshCollections(queryClient, link.supercurationIds);
    },
  });
}

/** Updates a link; `before` are the collections it was in, whose lists follow a change of membership. */
export function useUpdateLink(id: string, before: readonly string[] = []) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateLinkInput) => api.updateLink(id, input),
    onSuccess: (updated, input) => {
      patchLink(queryClient, id, () => updated);
      // A new URL clears what the link checker found.
      if (input.url !== undefined) refreshBrokenLinks(queryClient);
      if (input.supercurationIds) refreshCollections(queryClient, [...new Set([...before, ...updated.supercurationIds])]);
    },
  });
}

/** Deletes a link; one that no longer exists (404) is removed silently (SPEC §4). */
export function useDeleteLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      try {
        await api.deleteLink(id);
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404)) throw err;
      }
    },
    onSuccess: (_, id) => {
      removeLink(queryClient, id);
      refreshBrokenLinks(queryClient);
    },
  });
}

/** Likes or unlikes at once, then takes the server's {liked, likes}; a failure puts the old state back. */
export function useToggleLike(link: Link) {
  const queryClient = useQueryClient();
  const set = (state: LikeState) => patchLink(queryClient, link.id, (l) => ({ ...l, ...state }));
  return useMutation({
    mutationFn: () => api.toggleLike(link.id),
    onMutate: () => {
      const before: LikeState = { liked: link.liked, likes: link.likes };
      set({ liked: !link.liked, likes: Math.max(0, link.likes + (link.liked ? -1 : 1)) });
      return before;
    },
    onSuccess: set,
    onError: (err, _, before) => {
      if (before) set(before);
      toast.error(messageOf(err, 'Failed to like link'));
    },
  });
}

/** Reposts someone else's link into the viewer's 'My Reposts'. */
export function useRepost(link: Link) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.repost(link.id),
    onSuccess: () => {
      patchLink(queryClient, link.id, (l) => ({ ...l, repostsCount: l.repostsCount + 1 }));
      void queryClient.invalidateQueries({
        queryKey: queryKeys.feeds,
        predicate: (q) => linkListFiltersOf(q.queryKey)?.scope === 'reposts',
      });
      toast.success('Link reposted');
    },
    onError: (err) => toast.error(messageOf(err, 'Failed to repost link')),
  });
}

/** 'Mark as fine' on a broken link: no badge, and the 'Broken links (n)' counts and lists follow. */
export function useMarkLinkFine(link: Link) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.markLinkFine(link.id),
    onSuccess: () => {
      patchLink(queryClient, link.id, (l) => ({ ...l, broken: false }));
      refreshBrokenLinks(queryClient);
      toast.success(LINK_HEALTH_MESSAGES.markedFine);
    },
    onError: (err) => toast.error(messageOf(err, LINK_HEALTH_MESSAGES.markFineFailed)),
  });
}
