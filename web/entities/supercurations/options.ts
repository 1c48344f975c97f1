import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';

/**
 * 'Add to Supercurations' in Preview & Share: SPEC §2 offers only the collections the user created
 * (collaborators add links from the collection's own page).
 */
export function useSupercurationOptions() {
  const choices = useQuery({
    queryKey: queryKeys.supercurationChoices,
    queryFn: ({ signal }) => api.mySupercurationChoices(signal),
    staleTime: 60_000,
  });
  return (choices.data ?? []).filter((c) => c.isOwner).map(({ id, title, isPublic }) => ({ id, title, isPublic }));
}
