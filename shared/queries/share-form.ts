import { useQuery } from '@tanstack/react-query';
import { useApiClient } from './api-client';
import { queryKeys } from './keys';
import { useCreateTopic, useTopics } from './topics';

/**
 * 'Add to Supercurations' in Preview & Share: SPEC §2 offers only the collections the user created
 * (collaborators add links from the collection's own page).
 */
export function useSupercurationOptions() {
  const api = useApiClient();
  const choices = useQuery({
    queryKey: queryKeys.supercurationChoices,
    queryFn: ({ signal }) => api.mySupercurationChoices(signal),
    staleTime: 60_000,
  });
  return (choices.data ?? []).filter((c) => c.isOwner).map(({ id, title, isPublic }) => ({ id, title, isPublic }));
}

/**
 * What Preview & Share needs besides the link, in the web app and the extension alike: the user's
 * topics and collections, image uploads and topic creation.
 */
export function useShareFormServices() {
  const api = useApiClient();
  const topics = useTopics();
  const createTopic = useCreateTopic();
  return {
    topics: topics.data ?? [],
    supercurations: useSupercurationOptions(),
    uploadImage: (file: File) => api.uploadImage(file),
    createTopic: createTopic.mutateAsync,
  };
}
