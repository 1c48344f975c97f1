import { type InfiniteData, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import {
  type AddResourceInput,
  type CreateSupercurationInput,
  type Page,
  SUPERCURATION_MESSAGES,
  type Supercuration,
  type SupercurationFollowState,
  type SupercurationSummary,
  type TagCategory,
  type UpdateSupercurationInput,
  type UpdateTagCategoryInput,
} from '../../../shared/domain';
import { api, messageOf } from '../../lib/api';
import { isSupercurationDetail, queryKeys } from '../../../shared/queries/keys';
import { dropFromCollection, patchLink, refreshCollections } from '../../entities/links/linkCache';

function patchSupercuration(queryClient: QueryClient, id: string, patch: (s: Supercuration) => Supercuration) {
  queryClient.setQueryData<Supercuration>(queryKeys.supercuration(id), (prev) => (prev ? patch(prev) : prev));
}

/** Lists of collections (My Supercurations, directory, profiles, choices) are reloaded; the open one is kept. */
function refreshLists(queryClient: QueryClient) {
  void queryClient.invalidateQueries({
    queryKey: queryKeys.supercurations,
    predicate: (q) => !isSupercurationDetail(q.queryKey),
  });
}

export function useCreateSupercuration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateSupercurationInput) => api.createSupercuration(input),
    onSuccess: (created) => {
      queryClient.setQueryData(queryKeys.supercuration(created.id), created);
      refreshLists(queryClient);
    },
  });
}

export function useUpdateSupercuration(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateSupercurationInput) => api.updateSupercuration(id, input),
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.supercuration(id), updated);
      refreshLists(queryClient);
    },
  });
}

export function useDeleteSupercuration(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.deleteSupercuration(id),
    onSuccess: () => {
      refreshLists(queryClient);
      // Links lose this collection from their supercurationIds.
      void queryClient.invalidateQueries({ queryKey: queryKeys.links });
    },
  });
}

type CachedCollections = SupercurationSummary | InfiniteData<Page<SupercurationSummary>> | SupercurationSummary[] | undefined;

/** The follow state put into every cached copy of the collection: its page, and the lists that show it. */
function withFollowState(data: CachedCollections, id: string, state: SupercurationFollowState): CachedCollections {
  if (!data || Array.isArray(data)) return data;
  if ('pages' in data) {
    return { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.map((s) => (s.id === id ? { ...s, ...state } : s)) })) };
  }
  return data.id === id ? { ...data, ...state } : data;
}

/** Follow / Unfollow someone else's public collection; the count comes back from the server. */
export function useFollowToggle(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (follow: boolean) => (follow ? api.followSupercuration(id) : api.unfollowSupercuration(id)),
    onSuccess: (state) =>
      queryClient.setQueriesData<CachedCollections>({ queryKey: queryKeys.supercurations }, (data) => withFollowState(data, id, state)),
    onError: (err, follow) =>
      toast.error(messageOf(err, follow ? SUPERCURATION_MESSAGES.followFailed : SUPERCURATION_MESSAGES.unfollowFailed)),
  });
}

/** Resources: add (a saved link or a new one), tag, remove; the collection's count and lists follow. */
export function useResourceMutations(id: string) {
  const queryClient = useQueryClient();
  const afterChange = () => {
    refreshCollections(queryClient, [id]);
  };
  return {
    add: useMutation({
      mutationFn: (input: AddResourceInput) => api.addResource(id, input),
      onSuccess: (link) => {
        patchLink(queryClient, link.id, () => link);
        afterChange();
      },
    }),
    setTags: useMutation({
      mutationFn: ({ linkId, tags }: { linkId: string; tags: string[] }) => api.setResourceTags(id, linkId, tags),
      onSuccess: (link) => {
        patchLink(queryClient, link.id, () => link);
        // A tag filter may no longer (or now) match it.
        afterChange();
      },
    }),
    remove: useMutation({
      mutationFn: (linkId: string) => api.removeResource(id, linkId),
      onSuccess: (_, linkId) => {
        patchLink(queryClient, linkId, (l) => ({
          ...l,
          supercurationIds: l.supercurationIds.filter((s) => s !== id),
        }));
        dropFromCollection(queryClient, id, linkId);
        afterChange();
      },
    }),
  };
}

/** Edit Tags: categories (add 'New Category', rename, recolour, delete) and their tags. */
export function useTagMutations(id: string) {
  const queryClient = useQueryClient();
  const put = (category: TagCategory) =>
    patchSupercuration(queryClient, id, (s) => ({
      ...s,
      tagCategories: s.tagCategories.some((c) => c.id === category.id)
        ? s.tagCategories.map((c) => (c.id === category.id ? category : c))
        : [...s.tagCategories, category],
    }));
  // Removing tags takes them off the resources.
  const refreshResources = () => refreshCollections(queryClient, [id]);
  return {
    createCategory: useMutation({ mutationFn: () => api.createTagCategory(id), onSuccess: put }),
    updateCategory: useMutation({
      mutationFn: ({ categoryId, input }: { categoryId: string; input: UpdateTagCategoryInput }) =>
        api.updateTagCategory(id, categoryId, input),
      onSuccess: put,
    }),
    deleteCategory: useMutation({
      mutationFn: (categoryId: string) => api.deleteTagCategory(id, categoryId),
      onSuccess: (_, categoryId) => {
        patchSupercuration(queryClient, id, (s) => ({
          ...s,
          tagCategories: s.tagCategories.filter((c) => c.id !== categoryId),
        }));
        refreshResources();
      },
    }),
    addTag: useMutation({
      mutationFn: ({ categoryId, name }: { categoryId: string; name: string }) => api.addTag(id, categoryId, name),
      onSuccess: put,
    }),
    removeTag: useMutation({
      mutationFn: ({ categoryId, name }: { categoryId: string; name: string }) => api.removeTag(id, categoryId, name),
      onSuccess: (category) => {
        put(category);
        refreshResources();
      },
    }),
  };
}

/** Manage Collaborators: add and remove. */
export function useCollaboratorMutations(id: string) {
  const queryClient = useQueryClient();
  return {
    add: useMutation({
      mutationFn: (userId: string) => api.addCollaborator(id, userId),
      onSuccess: (collaborator) => {
        patchSupercuration(queryClient, id, (s) => ({
          ...s,
          collaborators: [...s.collaborators.filter((c) => c.id !== collaborator.id), collaborator],
        }));
        void queryClient.invalidateQueries({ queryKey: queryKeys.collaboratorSearch(id) });
      },
    }),
    remove: useMutation({
      mutationFn: (userId: string) => api.removeCollaborator(id, userId),
      onSuccess: (_, userId) => {
        patchSupercuration(queryClient, id, (s) => ({
          ...s,
          collaborators: s.collaborators.filter((c) => c.id !== userId),
        }));
        void queryClient.invalidateQueries({ queryKey: queryKeys.collaboratorSearch(id) });
      },
    }),
  };
}
