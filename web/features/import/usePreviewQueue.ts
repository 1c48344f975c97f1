import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { IMPORT_PREVIEW_CONCURRENCY, LINK_MESSAGES, NO_LINK_FACTS, displayHost, type LinkPreview } from '../../../shared/domain';
import { api } from '../../lib/api';
import { queryKeys } from '../../../shared/queries/keys';

export type PreviewState =
  | { status: 'waiting' | 'loading' }
  | { status: 'done'; preview: LinkPreview }
  /** The server refused or failed (rate limit, refused address): the spec's fallback preview stands in. */
  | { status: 'failed'; preview: LinkPreview };

/** SPEC §7's fallback: the host name as title and 'No preview available'. */
export function fallbackPreview(url: string): LinkPreview {
  return { url, title: displayHost(url) ?? url, description: LINK_MESSAGES.noPreview, thumbnailUrl: null, ...NO_LINK_FACTS, format: null };
}

/**
 * The previews of `urls`, fetched at most IMPORT_PREVIEW_CONCURRENCY at a time, in list order,
 * through the same query cache as the add box. New URLs join the queue; removed ones are dropped.
 */
export function usePreviewQueue(urls: readonly string[]): Record<string, PreviewState> {
  const queryClient = useQueryClient();
  const [states, setStates] = useState<Record<string, PreviewState>>({});

  useEffect(() => {
    let cancelled = false;
    const cached = (url: string) => queryClient.getQueryData<LinkPreview>(queryKeys.preview(url));
    const queue = urls.filter((url) => {
      const state = states[url];
      return !state || state.status === 'waiting' || state.status === 'loading';
    });
    const set = (url: string, state: PreviewState) => {
      if (!cancelled) setStates((prev) => ({ ...prev, [url]: state }));
    };
    async function worker() {
      for (let url = queue.shift(); url !== undefined && !cancelled; url = queue.shift()) {
        const hit = cached(url);
        if (hit) {
          set(url, { status: 'done', preview: hit });
          continue;
        }
        set(url, { status: 'loading' });
        try {
          const preview = await queryClient.fetchQuery({
            queryKey: queryKeys.preview(url),
            queryFn: ({ signal }) => api.preview(url, signal),
            staleTime: 60 * 60_000,
            retry: false,
          });
          set(url, { status: 'done', preview });
        } catch {
          set(url, { status: 'failed', preview: fallbackPreview(url) });
        }
      }
    }
    for (let i = 0; i < IMPORT_PREVIEW_CONCURRENCY; i += 1) void worker();
    return () => {
      cancelled = true;
    };
    // `states` is read once per new list, on purpose: the queue restarts only when the URLs change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [urls, queryClient]);

  return states;
}
