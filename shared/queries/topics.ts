import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Topic, TopicInput } from '../domain/links';
import { useApiClient } from './api-client';
import { queryKeys } from './keys';

/** The signed-in user's topics (pass enabled=false for visitors, who have none). */
export function useTopics(enabled = true) {
  const api = useApiClient();
  return useQuery({ queryKey: queryKeys.topics, queryFn: api.listTopics, enabled, staleTime: 5 * 60_000 });
}

/** Topics by id, to show a link's topic ids as names and colours. */
export function useTopicsById(enabled = true): Map<string, Topic> {
  const { data = [] } = useTopics(enabled);
  return new Map(data.map((t) => [t.id, t]));
}

export function useCreateTopic() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TopicInput) => api.createTopic(input),
    onSuccess: (topic) =>
      queryClient.setQueryData<Topic[]>(queryKeys.topics, (prev = []) => [...prev.filter((t) => t.id !== topic.id), topic]),
  });
}

export function useUpdateTopic() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: Partial<TopicInput> }) => api.updateTopic(id, input),
    onSuccess: (topic, { id }) => {
      queryClient.setQueryData<Topic[]>(queryKeys.topics, (prev = []) => prev.map((t) => (t.id === id ? topic : t)));
      // A rename may give the topic a new id: links refer to it by id.
      if (topic.id !== id) void queryClient.invalidateQueries({ queryKey: queryKeys.links });
    },
  });
}

export function useDeleteTopic() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.deleteTopic(id),
    onSuccess: (_, id) => {
      queryClient.setQueryData<Topic[]>(queryKeys.topics, (prev = []) => prev.filter((t) => t.id !== id));
      void queryClient.invalidateQueries({ queryKey: queryKeys.links });
    },
  });
}
